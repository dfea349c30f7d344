package dev.racetriage.lsp.lifecycle;

import java.util.Optional;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.DiagnosticTag;

/**
 * The client features the server adapts to, read once from {@code initialize}. A client that leaves a capability
 * out does not get the feature (the spec's rule): Neovim and Emacs differ here from VS Code.
 */
public record ClientSupport(
    boolean relatedInformation,
    boolean unnecessaryTag,
    boolean workDoneProgress,
    boolean showDocument,
    boolean codeLensRefresh,
    boolean watchedFilesRegistration) {

  public static ClientSupport from(ClientCapabilities caps) {
    if (caps == null) {
      return new ClientSupport(false, false, false, false, false, false);
    }
    var text = Optional.ofNullable(caps.getTextDocument());
    var diagnostics = text.map(t -> t.getPublishDiagnostics());
    var window = Optional.ofNullable(caps.getWindow());
    var workspace = Optional.ofNullable(caps.getWorkspace());
    return new ClientSupport(
        diagnostics.map(d -> Boolean.TRUE.equals(d.getRelatedInformation())).orElse(false),
        diagnostics.map(d -> supportsUnnecessary(d.getTagSupport())).orElse(false),
        window.map(w -> Boolean.TRUE.equals(w.getWorkDoneProgress())).orElse(false),
        window.map(w -> w.getShowDocument() != null && w.getShowDocument().isSupport()).orElse(false),
        workspace.map(w -> w.getCodeLens() != null && Boolean.TRUE.equals(w.getCodeLens().getRefreshSupport()))
            .orElse(false),
        workspace.map(w -> w.getDidChangeWatchedFiles() != null
            && Boolean.TRUE.equals(w.getDidChangeWatchedFiles().getDynamicRegistration())).orElse(false));
  }

  // older clients announce tag support as a plain boolean, newer ones with the list of tags they render
  private static boolean supportsUnnecessary(
      org.eclipse.lsp4j.jsonrpc.messages.Either<Boolean, org.eclipse.lsp4j.DiagnosticsTagSupport> tags) {
    if (tags == null) {
      return false;
    }
    if (tags.isLeft()) {
      return Boolean.TRUE.equals(tags.getLeft());
    }
    return tags.getRight() != null && tags.getRight().getValueSet() != null
        && tags.getRight().getValueSet().contains(DiagnosticTag.Unnecessary);
  }
}
