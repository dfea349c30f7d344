package dev.racetriage.lsp.codeactions;

import dev.racetriage.lsp.source.DocumentRewrite;
import java.util.List;
import java.util.Map;
import org.eclipse.jdt.core.dom.rewrite.ASTRewrite;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.WorkspaceEdit;

/** Builds the code actions every processor returns, so they all look alike to the client. */
final class QuickFixes {
  private QuickFixes() {}

  static CodeAction edit(String title, QuickFixContext context, ASTRewrite rewrite, boolean preferred) {
    CodeAction action = base(title, context);
    String uri = context.document().uri();
    action.setEdit(new WorkspaceEdit(Map.of(uri, DocumentRewrite.edits(rewrite, context.document().text()))));
    if (preferred) {
      action.setIsPreferred(true);
    }
    return action;
  }

  static CodeAction command(String title, QuickFixContext context, String command, List<Object> arguments) {
    CodeAction action = base(title, context);
    action.setCommand(new Command(title, command, arguments));
    return action;
  }

  private static CodeAction base(String title, QuickFixContext context) {
    CodeAction action = new CodeAction(title);
    action.setKind(CodeActionKind.QuickFix);
    if (!context.diagnostics().isEmpty()) {
      action.setDiagnostics(context.diagnostics());
    }
    return action;
  }
}
