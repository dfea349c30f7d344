package dev.racetriage.lsp.codeactions;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.racetriage.lsp.diagnostics.DiagnosticFactory;
import dev.racetriage.lsp.diagnostics.FileFindings;
import dev.racetriage.lsp.diagnostics.LocatedFinding;
import dev.racetriage.lsp.diagnostics.PublishedFindings;
import dev.racetriage.lsp.documents.DocumentSnapshot;
import dev.racetriage.lsp.documents.OpenDocuments;
import dev.racetriage.lsp.lifecycle.ClientLog;
import dev.racetriage.lsp.source.DeclaredFields;
import dev.racetriage.lsp.source.JavaSyntax;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jdt.core.dom.CompilationUnit;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.jsonrpc.CancelChecker;
import org.eclipse.lsp4j.jsonrpc.messages.Either;

/**
 * {@code textDocument/codeAction}: the racy fields at the range (from the client's racetriage diagnostics, whose
 * {@code data} carries the field key, and from the findings under the cursor) each get the quick fixes their
 * processors offer.
 */
public final class CodeActionHandler {
  private final OpenDocuments documents;
  private final PublishedFindings published;
  private final ClientLog log;
  private final List<QuickFixProcessor> processors = List.of(
      new AddVolatileProcessor(), new LocalCopyProcessor(), new MarkTrustedBenignProcessor(), new TriageNowProcessor());

  public CodeActionHandler(OpenDocuments documents, PublishedFindings published, ClientLog log) {
    this.documents = documents;
    this.published = published;
    this.log = log;
  }

  public List<Either<Command, CodeAction>> handle(CodeActionParams params, CancelChecker cancel) {
    String uri = params.getTextDocument().getUri();
    Optional<DocumentSnapshot> document = documents.get(uri);
    if (document.isEmpty()) {
      log.warn("racetriage: codeAction for " + uri + ", which is not open; open it first (no actions)");
      return List.of();
    }
    if (!document.get().isJava() || !wantsQuickFixes(params)) {
      return List.of();
    }
    // the fields come from the last published findings (perhaps a version behind while an edit is analysed; none
    // before the first analysis is done — never a wait for one); the edits are built on the text the client has now
    Optional<FileFindings> findings = published.of(uri);
    if (findings.isEmpty()) {
      return List.of();
    }
    Map<String, LocatedFinding> targets = targets(params, findings.get());
    if (targets.isEmpty()) {
      return List.of();
    }
    cancel.checkCanceled();
    DocumentSnapshot current = document.get();
    CompilationUnit unit = JavaSyntax.parse(current.text(), cancel); // a big file's parse stops at $/cancelRequest
    DeclaredFields fields = DeclaredFields.of(unit);
    List<Either<Command, CodeAction>> actions = new ArrayList<>();
    for (LocatedFinding target : targets.values()) {
      List<Diagnostic> related = diagnosticsFor(params, target.finding().fieldKey());
      QuickFixContext context = new QuickFixContext(current, unit, fields, target, params.getRange(), related);
      for (QuickFixProcessor processor : processors) {
        cancel.checkCanceled();
        processor.actions(context).forEach(action -> actions.add(Either.forRight(action)));
      }
    }
    return actions;
  }

  private static boolean wantsQuickFixes(CodeActionParams params) {
    List<String> only = params.getContext() == null ? null : params.getContext().getOnly();
    return only == null || only.isEmpty()
        || only.stream().anyMatch(kind -> CodeActionKind.QuickFix.startsWith(kind) || kind.isEmpty());
  }

  private static Map<String, LocatedFinding> targets(CodeActionParams params, FileFindings findings) {
    Map<String, LocatedFinding> targets = new LinkedHashMap<>();
    if (params.getContext() != null && params.getContext().getDiagnostics() != null) {
      for (Diagnostic diagnostic : params.getContext().getDiagnostics()) {
        fieldKey(diagnostic).flatMap(findings::forField).ifPresent(f -> targets.put(f.finding().fieldKey(), f));
      }
    }
    for (LocatedFinding finding : findings.findings()) {
      boolean atRange = FileFindings.overlaps(finding.anchor(), params.getRange())
          || finding.accessesHere().stream().anyMatch(r -> FileFindings.overlaps(r, params.getRange()));
      if (atRange) {
        targets.putIfAbsent(finding.finding().fieldKey(), finding);
      }
    }
    return targets;
  }

  private static List<Diagnostic> diagnosticsFor(CodeActionParams params, String fieldKey) {
    if (params.getContext() == null || params.getContext().getDiagnostics() == null) {
      return List.of();
    }
    return params.getContext().getDiagnostics().stream()
        .filter(d -> fieldKey(d).filter(fieldKey::equals).isPresent())
        .toList();
  }

  /** The field key a racetriage diagnostic carries in {@code data} (clients echo it back as JSON). */
  static Optional<String> fieldKey(Diagnostic diagnostic) {
    if (!DiagnosticFactory.SOURCE.equals(diagnostic.getSource())) {
      return Optional.empty();
    }
    Object data = diagnostic.getData();
    JsonElement element = data instanceof JsonElement e ? e
        : data == null ? null : com.google.gson.JsonParser.parseString(new com.google.gson.Gson().toJson(data));
    if (element instanceof JsonObject object && object.has(DiagnosticFactory.DATA_FIELD_KEY)
        && object.get(DiagnosticFactory.DATA_FIELD_KEY).isJsonPrimitive()) {
      return Optional.of(object.get(DiagnosticFactory.DATA_FIELD_KEY).getAsString());
    }
    return Optional.empty();
  }
}
