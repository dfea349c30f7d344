package dev.racetriage.lsp.findings;

import java.util.Locale;
import java.util.Optional;
import org.eclipse.lsp4j.DiagnosticSeverity;

/**
 * What is known about a field, from the weakest evidence (a static candidate) to a verdict, with the severity the
 * architecture assigns to each: candidate → Information, racy unclassified → Warning, destructive → Error, qos →
 * Warning, benign → Hint, trusted-benign → no diagnostic at all.
 */
public enum FieldStatus {
  CANDIDATE("candidate", DiagnosticSeverity.Information),
  RACY("racy", DiagnosticSeverity.Warning),
  DESTRUCTIVE("destructive", DiagnosticSeverity.Error),
  QOS("qos", DiagnosticSeverity.Warning),
  BENIGN("benign", DiagnosticSeverity.Hint),
  // no stale value was ever served: the race is real but untested, which is not the same as benign
  UNEXERCISED("unexercised", DiagnosticSeverity.Warning),
  // the test also fails without adversarial memory: the evidence says nothing about this race
  FLAKY("flaky", DiagnosticSeverity.Warning),
  TRUSTED_BENIGN("trusted-benign", null);

  private final String id;
  private final DiagnosticSeverity severity;

  FieldStatus(String id, DiagnosticSeverity severity) {
    this.id = id;
    this.severity = severity;
  }

  /** The diagnostic code and the word users see. */
  public String id() {
    return id;
  }

  /** Empty for trusted-benign: a mark silences the editor, the evidence stays in the store. */
  public Optional<DiagnosticSeverity> severity() {
    return Optional.ofNullable(severity);
  }

  public boolean isVerdict() {
    return this != CANDIDATE;
  }

  /** The status for a verdict word as the store spells it ({@code destructive}, {@code QOS}, {@code trusted_benign}). */
  public static Optional<FieldStatus> fromVerdict(String verdict) {
    if (verdict == null) {
      return Optional.empty();
    }
    String normalized = verdict.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    for (FieldStatus status : values()) {
      if (status.id.equals(normalized)) {
        return Optional.of(status);
      }
    }
    return Optional.empty();
  }
}
