package dev.racetriage.runner.trial;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Time limits that follow the run, not the clock. Until a (field, test) pair has {@value #MIN_CONTROL_RUNS}
 * finished {@code sc} runs, a run of it gets the test's static limit (derived from its baseline); from then on
 * {@value #FACTOR} × the p90 of those runs' durations plus {@link #SLACK} — a loaded machine that makes the control
 * take 29 s gives the adversarial runs two and a half minutes, where a fixed 30 s killed them, and a 50 ms test that
 * hangs is stopped after 10 s. A run in a fresh JVM adds the JVM's start-up allowance to the learned limit (the
 * static one already has it).
 */
public final class TrialLimits {
  static final int MIN_CONTROL_RUNS = 3;
  static final int FACTOR = 5;
  static final Duration SLACK = Duration.ofSeconds(10);

  private final Function<String, Duration> staticLimit;
  private final String staticBasis;
  private final Duration jvmStartup;
  private final Duration slack;
  private final Map<List<String>, List<Long>> controlMillis = new ConcurrentHashMap<>();

  /**
   * @param staticLimit per test id, the limit before any {@code sc} run is known (start-up included)
   * @param staticBasis how the static limit is set, for the evidence ("10x the baseline plus …")
   * @param jvmStartup  what a fresh JVM adds to a learned limit
   */
  public TrialLimits(Function<String, Duration> staticLimit, String staticBasis, Duration jvmStartup) {
    this(staticLimit, staticBasis, jvmStartup, SLACK);
  }

  /** With another slack than {@link #SLACK} (tests that let a run hang do not wait 10 s for it). */
  TrialLimits(Function<String, Duration> staticLimit, String staticBasis, Duration jvmStartup, Duration slack) {
    this.staticLimit = staticLimit;
    this.staticBasis = staticBasis;
    this.jvmStartup = jvmStartup;
    this.slack = slack;
  }

  /** A limit and how it was set (said in a timeout's evidence). */
  public record Limit(Duration duration, String basis) {
    public String describe() {
      return "the test did not finish within " + seconds(duration) + " (" + basis + ")";
    }
  }

  /** The limit of the next run of {@code testId} with {@code field} jumbled; {@code freshJvm}: it starts a JVM. */
  public Limit limit(String field, String testId, boolean freshJvm) {
    List<Long> control = controlMillis.getOrDefault(List.of(field, testId), List.of());
    synchronized (control) {
      if (control.size() < MIN_CONTROL_RUNS) {
        return new Limit(staticLimit.apply(testId), staticBasis + "; fewer than " + MIN_CONTROL_RUNS
            + " sc runs of this test were known");
      }
      long p90 = p90(control);
      Duration learned = Duration.ofMillis(FACTOR * p90).plus(slack);
      return new Limit(freshJvm ? learned.plus(jvmStartup) : learned, String.format(Locale.ROOT,
          "%dx the p90 of %d sc run(s) of this test, %s, plus %s%s", FACTOR, control.size(),
          seconds(Duration.ofMillis(p90)), seconds(slack), freshJvm ? " and the JVM's start-up" : ""));
    }
  }

  /** Learns from a finished {@code sc} run (timeouts and other heuristics' runs teach nothing). */
  public void record(TrialOutcome outcome) {
    if (!outcome.isControl() || outcome.timedOut()) return;
    List<Long> control = controlMillis.computeIfAbsent(List.of(outcome.spec().fieldKey(), outcome.spec().testId()),
        k -> new ArrayList<>());
    synchronized (control) {
      control.add(outcome.millis());
    }
  }

  /** The nearest-rank 90th percentile. */
  static long p90(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int rank = (int) Math.ceil(0.9 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s"
        : String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
  }
}
