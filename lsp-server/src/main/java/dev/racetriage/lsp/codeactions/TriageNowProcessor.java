package dev.racetriage.lsp.codeactions;

import dev.racetriage.lsp.commands.Commands;
import java.util.List;
import org.eclipse.lsp4j.CodeAction;

/** "Triage `f` now": runs {@link Commands#TRIAGE_NOW}, which puts the field at the head of the daemon's work queue. */
public final class TriageNowProcessor implements QuickFixProcessor {
  @Override
  public List<CodeAction> actions(QuickFixContext context) {
    String name = context.target().finding().fieldName();
    return List.of(QuickFixes.command("Triage `" + name + "` now", context, Commands.TRIAGE_NOW,
        List.of(context.fieldKey())));
  }
}
