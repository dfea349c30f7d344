package dev.racetriage.lsp.codeactions;

import java.util.List;
import org.eclipse.lsp4j.CodeAction;

/** One kind of quick fix: decides whether it applies to the field at hand and builds the action. */
public interface QuickFixProcessor {
  List<CodeAction> actions(QuickFixContext context);
}
