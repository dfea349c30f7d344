package dev.racetriage.store.replay;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.detail.RaceDetail;
import dev.racetriage.store.trials.Trial;
import dev.racetriage.store.trials.TrialOutcome;
import dev.racetriage.store.trials.TrialRecord;
import dev.racetriage.store.verdicts.VerdictRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One stored trial to run again: the field jumbled, the test, the heuristic and the seed. Every place that shows how
 * to reproduce a verdict (report, dashboard, hover, exports) shows {@link #command} — {@code racetriage replay …},
 * shell-quoted — and keeps the raw {@code java} line of the evidence only for tools.
 */
public record ReplayTarget(FieldKey field, String test, String heuristic, long seed) {
  public ReplayTarget {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(test, "test");
    Objects.requireNonNull(heuristic, "heuristic");
  }

  public static ReplayTarget of(Trial trial) {
    return new ReplayTarget(trial.field(), trial.test(), trial.heuristic(), trial.seed());
  }

  /**
   * {@code racetriage replay FIELD --test T --heuristic H --seed S [--project DIR]}, every word quoted for a POSIX
   * shell; {@code project} may be null (the command is then run from the project's directory).
   */
  public String command(Path project) {
    List<String> words = new ArrayList<>(List.of("racetriage", "replay", field.toString(), "--test", test,
        "--heuristic", heuristic, "--seed", Long.toString(seed)));
    if (project != null) {
      words.add("--project");
      words.add(project.toAbsolutePath().normalize().toString());
    }
    return ShellWords.join(words);
  }

  /**
   * The trial that shows a race's verdict best: the failing trial whose failure the current verdict quotes, else the
   * first failing trial not under {@code sc} (stale values at work), else any failing one, else (no failure) the
   * first trial of the verdict's best evidence; empty when the race has no trial.
   */
  public static Optional<ReplayTarget> decisive(RaceDetail detail) {
    List<Trial> trials = new ArrayList<>();
    detail.trialsByHeuristic().values().forEach(list -> list.stream().map(TrialRecord::trial).forEach(trials::add));
    if (trials.isEmpty()) return Optional.empty();
    String quoted = current(detail).map(v -> v.evidence().firstFailure()).orElse(null);
    List<Trial> failing = trials.stream().filter(t -> t.outcome() != TrialOutcome.PASS).toList();
    return failing.stream().filter(t -> quoted != null && quoted.equals(t.failure())).findFirst()
        .or(() -> failing.stream().filter(t -> !"sc".equals(t.heuristic())).findFirst())
        .or(() -> failing.stream().findFirst())
        .or(() -> trials.stream().filter(t -> !"sc".equals(t.heuristic())).findFirst())
        .or(() -> trials.stream().findFirst())
        .map(ReplayTarget::of);
  }

  /** The current verdict of {@code detail}, if any (the newest of its history). */
  public static Optional<VerdictRecord> current(RaceDetail detail) {
    List<VerdictRecord> history = detail.verdictHistory();
    return history.isEmpty() ? Optional.empty() : Optional.of(history.get(history.size() - 1));
  }
}
