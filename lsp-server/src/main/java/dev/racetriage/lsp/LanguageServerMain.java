package dev.racetriage.lsp;

import java.io.IOException;
import java.util.List;

/**
 * {@code java dev.racetriage.lsp.LanguageServerMain [--socket PORT]}: the server as a process of its own (what
 * {@code racetriage lsp} runs, and what the process-level tests start). Exits with the LSP exit code.
 */
public final class LanguageServerMain {
  /**
   * JVM options for a server on stdio: the JVM prints some of its own warnings ("CodeCache is full", unified-logging
   * warnings) on standard output by default, where they would corrupt the protocol stream; these send them to standard
   * error. The {@code racetriage} launcher script and the VS Code extension pass the same options.
   */
  public static final List<String> VM_OUTPUT_TO_STDERR =
      List.of("-XX:+DisplayVMOutputToStderr", "-Xlog:disable", "-Xlog:all=warning:stderr");

  private LanguageServerMain() {}

  public static void main(String[] args) throws IOException {
    System.exit(run(args));
  }

  public static int run(String[] args) throws IOException {
    if (args.length == 2 && args[0].equals("--socket")) {
      return LanguageServerLauncher.socket(RacetriageLanguageServer.create(), Integer.parseInt(args[1]));
    }
    if (args.length != 0) {
      System.err.println("usage: LanguageServerMain [--socket PORT]");
      return 2;
    }
    return LanguageServerLauncher.stdio(RacetriageLanguageServer.create());
  }
}
