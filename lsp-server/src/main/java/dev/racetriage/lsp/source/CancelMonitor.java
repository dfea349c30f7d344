package dev.racetriage.lsp.source;

import java.util.concurrent.CancellationException;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.lsp4j.jsonrpc.CancelChecker;

/**
 * A {@link CancelChecker} as JDT asks for one: {@code ASTParser.createAST} hands its monitor to the AST converter,
 * which looks at {@link #isCanceled} as it converts each declaration, so a superseded analysis or a cancelled request
 * stops inside a big file's parse rather than after it.
 */
final class CancelMonitor extends NullProgressMonitor {
  private final CancelChecker cancel;

  CancelMonitor(CancelChecker cancel) {
    this.cancel = cancel;
  }

  @Override
  public boolean isCanceled() {
    try {
      cancel.checkCanceled();
      return false;
    } catch (CancellationException e) {
      return true;
    }
  }
}
