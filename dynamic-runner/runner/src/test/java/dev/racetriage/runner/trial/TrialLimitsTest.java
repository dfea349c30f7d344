package dev.racetriage.runner.trial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Limits that follow the pair's sc runs, and the machine load named in a timeout's evidence. */
class TrialLimitsTest {
  private static final String FIELD = "demo.C.x";
  private static final String TEST = "[engine:junit-jupiter]/[class:demo.CTest]/[method:t()]";

  private final TrialLimits limits = new TrialLimits(id -> Duration.ofSeconds(30), "the static limit",
      Duration.ofSeconds(20));

  private static TrialOutcome run(String heuristic, TrialOutcome.Result result, long millis) {
    return new TrialOutcome(new TrialSpec(FIELD, TEST, "demo.CTest#t", heuristic, 1), result, millis, 1, 0, null,
        "java …", false, false);
  }

  @Test
  void theStaticLimitHoldsUntilThreeScRunsAreKnownUnlessTheKnownOnesNeedMore() {
    limits.record(run("sc", TrialOutcome.Result.PASS, 200));
    limits.record(run("sc", TrialOutcome.Result.PASS, 300));
    limits.record(run("oldest", TrialOutcome.Result.PASS, 900)); // not the control: teaches nothing
    TrialLimits.Limit limit = limits.limit(FIELD, TEST, false);
    assertEquals(Duration.ofSeconds(30), limit.duration());
    assertTrue(limit.basis().startsWith("the static limit; fewer than 3 sc runs"), limit.basis());

    limits.record(run("sc", TrialOutcome.Result.PASS, 9_000));
    // 5 x 9 s + 10 s = 55 s: more than the static 30 s (three runs now, so the p90 rule applies)
    assertEquals(Duration.ofSeconds(55), limits.limit(FIELD, TEST, false).duration());
  }

  @Test
  void oneSlowScRunRaisesTheLimitAboveTheStaticOne() {
    limits.record(run("sc", TrialOutcome.Result.PASS, 21_700));
    TrialLimits.Limit limit = limits.limit(FIELD, TEST, false);
    assertEquals(Duration.ofMillis(5 * 21_700 + 10_000), limit.duration());
    assertEquals("5x the slowest of 1 sc run(s) of this test, 21.7 s, plus 10 s", limit.basis());
  }

  @Test
  void eachScTimeoutDoublesThePairsLimitThreeTimesAtMost() {
    limits.record(run("sc", TrialOutcome.Result.TIMEOUT, 30_000));
    TrialLimits.Limit once = limits.limit(FIELD, TEST, false);
    assertEquals(Duration.ofSeconds(60), once.duration());
    assertTrue(once.basis().endsWith("doubled once after 1 sc run(s) of this test timed out"), once.basis());
    limits.record(run("oldest", TrialOutcome.Result.TIMEOUT, 60_000)); // a heuristic's timeout is its own evidence
    assertEquals(Duration.ofSeconds(60), limits.limit(FIELD, TEST, false).duration());
    for (int i = 0; i < 4; i++) limits.record(run("sc", TrialOutcome.Result.TIMEOUT, 60_000));
    assertEquals(Duration.ofSeconds(240), limits.limit(FIELD, TEST, false).duration(), "30 s x 2^3");
    assertEquals(Duration.ofSeconds(30), limits.limit("demo.C.other", TEST, false).duration(), "per pair");
  }

  @Test
  void scRunsOfTheSameTestWithAnotherFieldJumbledTeachItsLimit() {
    for (long millis : new long[] {1_000, 2_000, 3_000}) {
      limits.record(new TrialOutcome(new TrialSpec("demo.C.other", TEST, "demo.CTest#t", "sc", 1),
          TrialOutcome.Result.PASS, millis, 1, 0, null, "java …", false, false));
    }
    TrialLimits.Limit limit = limits.limit(FIELD, TEST, false);
    assertEquals(Duration.ofSeconds(5 * 3 + 10), limit.duration());
    assertTrue(limit.basis().contains("(any field jumbled)"), limit.basis());
  }

  @Test
  void fromThreeScRunsTheLimitIsFiveTimesTheirP90PlusSlack() {
    for (long millis : new long[] {29_600, 2_000, 2_400}) limits.record(run("sc", TrialOutcome.Result.PASS, millis));
    TrialLimits.Limit served = limits.limit(FIELD, TEST, false);
    assertEquals(Duration.ofMillis(5 * 29_600 + 10_000), served.duration(),
        "a loaded machine's 29.6 s control run gives 158 s, not a fixed 30 s");
    assertEquals("5x the p90 of 3 sc run(s) of this test, 29.6 s, plus 10 s", served.basis());
    assertEquals(Duration.ofMillis(5 * 29_600 + 30_000), limits.limit(FIELD, TEST, true).duration(),
        "a fresh JVM adds its start-up");
    assertEquals(Duration.ofMillis(5 * 29_600 + 10_000), limits.limit("demo.C.other", TEST, false).duration(),
        "another field of the same test learns from this one's control runs");
    assertTrue(served.describe().startsWith("the test did not finish within 158 s (5x the p90"), served.describe());
  }

  @Test
  void aShortTestGetsAShortLimit() {
    for (int i = 0; i < 10; i++) limits.record(run("sc", TrialOutcome.Result.PASS, 40 + i));
    assertEquals(Duration.ofMillis(5 * 48 + 10_000), limits.limit(FIELD, TEST, false).duration(), "p90 of 40..49 is 48");
  }

  @Test
  void p90IsTheNearestRank() {
    assertEquals(5, TrialLimits.p90(List.of(1L, 2L, 3L, 4L, 5L)));
    assertEquals(9, TrialLimits.p90(List.of(10L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L)));
  }

  @Test
  void aLoadAboveTheCoresIsNamed(@TempDir Path dir) throws Exception {
    Path loadavg = dir.resolve("loadavg");
    Files.writeString(loadavg, "5.31 4.02 3.10 7/812 12345\n");
    assertEquals("machine load 5.31 on 2 core(s) (/proc/loadavg)", MachineLoad.describeIfHigh(loadavg, 2));
    assertNull(MachineLoad.describeIfHigh(loadavg, 8), "below the cores: not worth naming");
    assertNull(MachineLoad.describeIfHigh(dir.resolve("missing"), 2));
    Files.writeString(loadavg, "garbage");
    assertNull(MachineLoad.describeIfHigh(loadavg, 2));
  }
}
