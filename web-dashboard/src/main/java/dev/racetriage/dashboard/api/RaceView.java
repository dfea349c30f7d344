package dev.racetriage.dashboard.api;

import dev.racetriage.dashboard.source.SourceExcerpt;
import dev.racetriage.store.marks.AuditAction;
import dev.racetriage.store.marks.AuditEntry;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Everything the race page shows: the race, its accesses with the source lines around each (when the file is in
 * the project), the tests, the trial matrix and per-heuristic aggregates, the first failure, the replay command,
 * each trial's duration per heuristic (for the duration chart: a QoS verdict is a shift of this distribution), the
 * verdict history, the lifecycle (fixed, regressed) and the audit log. {@code replayCommand} is
 * {@code racetriage replay …}, shell-quoted; {@code javaCommand} the raw test JVM line of the evidence, for tools.
 */
public record RaceView(
    RaceRow race,
    List<Access> accesses,
    List<String> tests,
    List<HeuristicRow> heuristics,
    TrialMatrix matrix,
    Map<String, List<Long>> durationsMs,
    String summary,
    String firstFailure,
    String replayCommand,
    String javaCommand,
    List<VerdictEntry> verdictHistory,
    List<LifecycleEntry> lifecycle,
    List<AuditRow> audit,
    Candidate candidate) {

  public record Access(
      String type, String thread, String file, int line, List<String> stack, SourceExcerpt source) {}

  /**
   * Aggregates of one heuristic's trials ({@code sc} is the control): {@code failureRate} is failed runs ÷ runs,
   * {@code staleReadRate} stale reads ÷ reads of the field, durations are the median and the maximum.
   */
  public record HeuristicRow(
      String heuristic,
      int runs,
      int failures,
      int timeouts,
      long reads,
      long staleReads,
      double failureRate,
      double staleReadRate,
      long medianDurationMs,
      long maxDurationMs) {}

  /** A lifecycle change: {@code fixed} or {@code regressed}, by which run, at which commit. */
  public record LifecycleEntry(String state, Long runId, String commit, String note, Instant at) {}

  /** Failures / runs per test (rows) and heuristic (columns). */
  public record TrialMatrix(List<String> heuristics, List<MatrixRow> rows) {}

  public record MatrixRow(String test, List<Cell> cells) {}

  /** {@code runs == 0}: the test was not tried under that heuristic. */
  public record Cell(int runs, int failures, int timeouts, long staleReads) {}

  public record VerdictEntry(
      String verdict, String summary, Instant decidedAt, Long runId, String javaCommand, Map<String, String> facts) {}

  /** A triage action; {@code action} is {@code mark-trusted-benign}, {@code reopen}, {@code comment} or {@code import-mark}. */
  public record AuditRow(String action, String author, String note, Instant at) {
    public static AuditRow of(AuditEntry entry) {
      return new AuditRow(label(entry.action()), entry.author(), entry.note(), entry.at());
    }

    public static String label(AuditAction action) {
      return action.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  public record Candidate(String file, int line, double confidence, List<String> patterns, List<String> reasons) {}
}
