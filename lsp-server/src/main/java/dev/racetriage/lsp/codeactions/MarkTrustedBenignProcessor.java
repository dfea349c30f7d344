package dev.racetriage.lsp.codeactions;

import dev.racetriage.lsp.commands.Commands;
import dev.racetriage.lsp.findings.FieldStatus;
import java.util.List;
import org.eclipse.lsp4j.CodeAction;

/**
 * "Mark `f` as trusted-benign": runs {@link Commands#MARK_TRUSTED_BENIGN}, which writes the store (and through it the
 * shared marks file). Offered for every race that is not marked yet; a destructive verdict is not hidden from the
 * choice, since the mark overrides the display and never the evidence.
 */
public final class MarkTrustedBenignProcessor implements QuickFixProcessor {
  @Override
  public List<CodeAction> actions(QuickFixContext context) {
    if (context.target().finding().status() == FieldStatus.TRUSTED_BENIGN) {
      return List.of();
    }
    String name = context.target().finding().fieldName();
    return List.of(QuickFixes.command("Mark `" + name + "` as trusted-benign", context,
        Commands.MARK_TRUSTED_BENIGN, List.of(context.fieldKey())));
  }
}
