package dev.racetriage.lsp.triage;

import dev.racetriage.lsp.findings.FieldFinding;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * What the language server reads from and writes to the triage store. The store is shared with the daemon (writer)
 * and the dashboard, in other processes; every call is one short transaction.
 */
public interface TriageDatabase extends AutoCloseable {

  /** A number that changes whenever verdicts, marks or races change: polled every second, so it must be cheap. */
  long dataVersion();

  /**
   * Verdicts of the given fields and of the races with an access in {@code file}; a trusted-benign mark shows as
   * status trusted-benign. Fields without a verdict are absent.
   */
  List<FieldFinding> verdicts(Collection<String> fieldKeys, Path file);

  /** Records a trusted-benign mark (store + shared marks file) with its author and note, in the audit log. */
  void markTrustedBenign(String fieldKey, String author, String note);

  /**
   * As {@link #markTrustedBenign(String, String, String)}; {@code overridesDestructive}: the user confirmed marking a
   * destructive race, which the audit log records as an override.
   */
  default void markTrustedBenign(String fieldKey, String author, String note, boolean overridesDestructive) {
    markTrustedBenign(fieldKey, author, note);
  }

  /** The evidence summary of the race on {@code fieldKey} when its verdict is destructive; empty otherwise. */
  default java.util.Optional<String> destructiveEvidence(String fieldKey) {
    return java.util.Optional.empty();
  }

  /** The team's marks file changed (a pull, a teammate's edit): bring the database's marks in line with it. */
  void syncSharedMarks();

  /** Puts the field at the head of the daemon's work queue. */
  void enqueueTriage(String fieldKey, String reason);

  /** The daemon's current run, if one is in progress. */
  Optional<DaemonActivity> activity();

  /** Where the data lives, for messages. */
  Path location();

  @Override
  void close();
}
