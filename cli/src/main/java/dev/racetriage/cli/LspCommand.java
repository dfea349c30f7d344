package dev.racetriage.cli;

import dev.racetriage.lsp.LanguageServerLauncher;
import dev.racetriage.lsp.RacetriageLanguageServer;
import java.io.IOException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "lsp",
    mixinStandardHelpOptions = true,
    description = {
      "Run the language server for any LSP client.",
      "Speaks LSP on standard input and output (VS Code, Neovim, Emacs, Helix): race diagnostics,",
      "quick fixes, hovers and code lenses."
    })
final class LspCommand implements Callable<Integer> {

  @Option(names = "--socket", paramLabel = "PORT", description = "Listen on 127.0.0.1:PORT instead of stdio (for debugging)")
  Integer socket;

  /** Returns the LSP exit code: 0 after shutdown + exit, 1 when the client went away without them. */
  @Override
  public Integer call() {
    RacetriageLanguageServer server = RacetriageLanguageServer.create();
    if (socket == null) {
      return LanguageServerLauncher.stdio(server);
    }
    if (socket < 0 || socket > 65535) {
      throw new UserError("--socket " + socket + " is not a TCP port (0-65535; 0 picks a free one)", 2);
    }
    try {
      return LanguageServerLauncher.socket(server, socket);
    } catch (IOException e) {
      throw new UserError("cannot listen on 127.0.0.1:" + socket + ": " + e.getMessage()
          + " (is another server on that port? pick another with --socket)", 1, e);
    }
  }
}
