package dev.racetriage.lsp.diagnostics;

import com.google.gson.JsonObject;
import dev.racetriage.lsp.documents.DocumentUris;
import dev.racetriage.lsp.findings.AccessSite;
import dev.racetriage.lsp.findings.FieldFinding;
import dev.racetriage.lsp.findings.FieldStatus;
import dev.racetriage.lsp.lifecycle.ClientSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticRelatedInformation;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.DiagnosticTag;
import org.eclipse.lsp4j.Location;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;

/**
 * One diagnostic per finding: source {@code racetriage}, code = verdict or pattern, related information pointing at
 * the conflicting accesses, {@code data} carrying the field key (code actions read it back). Candidates below
 * {@link #HINT_BELOW} confidence are Hints rather than Information, so weak guesses stay quiet.
 */
public final class DiagnosticFactory {
  public static final String SOURCE = "racetriage";
  public static final String DATA_FIELD_KEY = "fieldKey";
  public static final String DATA_STATUS = "status";
  static final double HINT_BELOW = 0.5;

  private DiagnosticFactory() {}

  public static Optional<Diagnostic> create(LocatedFinding located, ClientSupport client) {
    FieldFinding finding = located.finding();
    Optional<DiagnosticSeverity> severity = finding.status().severity();
    if (severity.isEmpty()) {
      return Optional.empty();
    }
    DiagnosticSeverity chosen = finding.status() == FieldStatus.CANDIDATE && finding.confidence() < HINT_BELOW
        ? DiagnosticSeverity.Hint
        : severity.get();
    Diagnostic diagnostic = new Diagnostic(located.anchor(), message(finding), chosen, SOURCE, finding.code());
    JsonObject data = new JsonObject();
    data.addProperty(DATA_FIELD_KEY, finding.fieldKey());
    data.addProperty(DATA_STATUS, finding.status().id());
    diagnostic.setData(data);
    if (client.relatedInformation() && !finding.accesses().isEmpty()) {
      List<DiagnosticRelatedInformation> related = new ArrayList<>();
      for (AccessSite access : finding.accesses()) {
        int line = Math.max(0, access.line() - 1);
        related.add(new DiagnosticRelatedInformation(
            new Location(DocumentUris.toUri(access.file()), new Range(new Position(line, 0), new Position(line, 0))),
            access.description()));
      }
      diagnostic.setRelatedInformation(related);
    }
    if (client.unnecessaryTag() && finding.status() == FieldStatus.BENIGN) {
      // the race is harmless: clients fade the name instead of underlining it
      diagnostic.setTags(List.of(DiagnosticTag.Unnecessary));
    }
    return Optional.of(diagnostic);
  }

  static String message(FieldFinding finding) {
    String field = "'" + finding.fieldName() + "'";
    StringBuilder text = new StringBuilder();
    switch (finding.status()) {
      case CANDIDATE -> text.append("Possible data race on ").append(field).append(": ").append(finding.summary());
      case RACY -> text.append("Data race on ").append(field).append(" (seen in the tests, not classified yet)");
      case DESTRUCTIVE -> text.append("Destructive data race on ").append(field)
          .append(": stale values make tests fail");
      case QOS -> text.append("QoS data race on ").append(field).append(": stale values slow the tests down");
      case BENIGN -> text.append("Benign data race on ").append(field).append(": stale values changed nothing");
      case UNEXERCISED -> text.append("Data race on ").append(field)
          .append(" not exercised: no stale value was ever served, so it is untested, not benign");
      case FLAKY -> text.append("Data race on ").append(field)
          .append(": its tests also fail without stale values (flaky), so there is no verdict");
      case TRUSTED_BENIGN -> text.append("Trusted-benign data race on ").append(field);
    }
    if (finding.evidence().testCode()) {
      text.append(" (in test code)");
    }
    if (finding.status().isVerdict() && !finding.summary().isBlank()) {
      text.append(". ").append(finding.summary());
    }
    finding.evidence().firstFailure().ifPresent(failure -> text.append("\nFirst failure: ").append(head(failure)));
    return text.toString();
  }

  /** The exception and its top frame: a whole stack trace would swamp the problems list (the hover has it all). */
  public static String head(String stackTrace) {
    String[] lines = stackTrace.strip().split("\\R");
    if (lines.length <= 2) {
      return String.join("\n", lines);
    }
    return lines[0] + "\n" + lines[1] + "\n\t… (" + (lines.length - 2) + " more lines in the hover)";
  }
}
