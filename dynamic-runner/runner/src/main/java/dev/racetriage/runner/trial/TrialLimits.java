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
 * finished {@code sc} runs, a run of it gets the test's static limit (derived from its baseline), or what the same
 * test's {@code sc} runs with other fields jumbled taught (the same control experiment); from then on
 * {@value #FACTOR} × the p90 of those runs' durations plus {@link #SLACK} — a loaded machine that makes the control
 * take 29 s gives the adversarial runs two and a half minutes, where a fixed 30 s killed them, and a 50 ms test that
 * hangs is stopped after 10 s. With one or two {@code sc} runs known, one that took more than a fifth of the static
 * limit raises it to {@value #FACTOR} × the slowest plus the slack. A run in a fresh JVM adds the JVM's start-up allowance to the learned limit (the
 * static one already has it).
 *
 * <p>An {@code sc} run that timed out is the machine's noise until the control keeps doing it, so each of the pair's
 * {@code sc} timeouts doubles its next limits (at most {@value #MAX_DOUBLINGS} times): a test that took 20 s under the
 * agent on a machine at load 16, where the static limit was 30 s, gets 60 s, then 120 s, before the control is said to
 * keep timing out (conversant/disruptor's spinning poller test at load 14–16 was called flaky by 30 s kills while its
 * finished control runs took 4–22 s).
 */
public final class TrialLimits {
  static final int MIN_CONTROL_RUNS = 3;
  static final int FACTOR = 5;
  static final Duration SLACK = Duration.ofSeconds(10);
  static final int MAX_DOUBLINGS = 3;

  private final Function<String, Duration> staticLimit;
  private final String staticBasis;
  private final Duration jvmStartup;
  private final Duration slack;
  private final Map<List<String>, List<Long>> controlMillis = new ConcurrentHashMap<>();
  /** Per test id: the finished sc runs of every field's trials of it. */
  private final Map<String, List<Long>> testControlMillis = new ConcurrentHashMap<>();
  private final Map<List<String>, Integer> controlTimeouts = new ConcurrentHashMap<>();

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
    Limit base = baseLimit(field, testId, freshJvm);
    int timeouts = controlTimeouts.getOrDefault(List.of(field, testId), 0);
    int doublings = Math.min(MAX_DOUBLINGS, timeouts);
    if (doublings == 0) return base;
    return new Limit(base.duration().multipliedBy(1L << doublings), base.basis() + String.format(Locale.ROOT,
        ", doubled %s after %d sc run(s) of this test timed out", doublings == 1 ? "once" : doublings + " times",
        timeouts));
  }

  private Limit baseLimit(String field, String testId, boolean freshJvm) {
    List<Long> control = snapshot(controlMillis.getOrDefault(List.of(field, testId), List.of()));
    String whose = "of this test";
    if (control.size() < MIN_CONTROL_RUNS) {
      List<Long> sameTest = snapshot(testControlMillis.getOrDefault(testId, List.of()));
      if (sameTest.size() >= MIN_CONTROL_RUNS) {
        control = sameTest;
        whose = "of this test (any field jumbled)";
      }
    }
    if (control.size() < MIN_CONTROL_RUNS) {
      Duration fixed = staticLimit.apply(testId);
      String basis = staticBasis + "; fewer than " + MIN_CONTROL_RUNS + " sc runs of this test were known";
      if (control.isEmpty()) return new Limit(fixed, basis);
      long slowest = control.stream().mapToLong(Long::longValue).max().orElse(0);
      Duration floor = Duration.ofMillis(FACTOR * slowest).plus(slack).plus(freshJvm ? jvmStartup : Duration.ZERO);
      // only when a known run took more than a fifth of the static limit: a short test keeps its static limit
      return Duration.ofMillis(FACTOR * slowest).compareTo(fixed) > 0
          ? new Limit(floor, String.format(Locale.ROOT, "%dx the slowest of %d sc run(s) %s, %s, plus %s%s", FACTOR,
              control.size(), whose, seconds(Duration.ofMillis(slowest)), seconds(slack),
              freshJvm ? " and the JVM's start-up" : ""))
          : new Limit(fixed, basis);
    }
    long p90 = p90(control);
    Duration learned = Duration.ofMillis(FACTOR * p90).plus(slack);
    return new Limit(freshJvm ? learned.plus(jvmStartup) : learned, String.format(Locale.ROOT,
        "%dx the p90 of %d sc run(s) %s, %s, plus %s%s", FACTOR, control.size(), whose,
        seconds(Duration.ofMillis(p90)), seconds(slack), freshJvm ? " and the JVM's start-up" : ""));
  }

  private static List<Long> snapshot(List<Long> values) {
    synchronized (values) {
      return new ArrayList<>(values);
    }
  }

  /**
   * Learns from a finished {@code sc} run: its duration, or, when it timed out, that the pair's next runs need a
   * longer limit (other heuristics' runs teach nothing: stale values may slow them).
   */
  public void record(TrialOutcome outcome) {
    if (!outcome.isControl()) return;
    List<String> pair = List.of(outcome.spec().fieldKey(), outcome.spec().testId());
    if (outcome.timedOut()) {
      controlTimeouts.merge(pair, 1, Integer::sum);
      return;
    }
    for (List<Long> control : List.of(controlMillis.computeIfAbsent(pair, k -> new ArrayList<>()),
        testControlMillis.computeIfAbsent(outcome.spec().testId(), k -> new ArrayList<>()))) {
      synchronized (control) {
        control.add(outcome.millis());
      }
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
