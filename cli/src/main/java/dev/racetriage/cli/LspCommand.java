package dev.racetriage.cli;

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

  @Override
  public Integer call() {
    throw NotBuiltYet.of("racetriage lsp", "the language server");
  }
}
