package dev.racetriage.runner.trial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which fields go to the fresh-JVM retry, and what the evidence says about the mode that exercised them. */
class FreshJvmRetryTest {
  private static final String TEST = "[engine:junit-jupiter]/[class:demo.FlagTest]/[method:t()]";

  private static TrialCell cell(String field, String heuristic) {
    return new TrialCell(field, TEST, "demo.FlagTest#t", heuristic);
  }

  private static TrialOutcome outcome(String field, String heuristic, TrialOutcome.Result result, long stale,
      boolean freshJvm) {
    return new TrialOutcome(new TrialSpec(field, TEST, "demo.FlagTest#t", heuristic, 1), result, 10, 100, stale,
        result == TrialOutcome.Result.PASS ? null : "boom", "java …", false, freshJvm);
  }

  @Test
  void aFieldUnexercisedInAReusedJvmIsRetriedWithSeedsOfItsOwn() {
    List<TrialCell> cells = List.of(cell("demo.Flag.verbose", "sc"), cell("demo.Flag.verbose", "oldest"),
        cell("demo.Other.x", "sc"), cell("demo.Other.x", "oldest"));
    List<TrialOutcome> outcomes = List.of(
        outcome("demo.Flag.verbose", "sc", TrialOutcome.Result.PASS, 0, false),
        outcome("demo.Flag.verbose", "oldest", TrialOutcome.Result.PASS, 0, false),
        outcome("demo.Other.x", "sc", TrialOutcome.Result.PASS, 0, false),
        outcome("demo.Other.x", "oldest", TrialOutcome.Result.PASS, 4, false));

    List<TrialCell> retry = FreshJvmRetry.cellsToRetry(cells, outcomes);
    assertEquals(List.of("demo.Flag.verbose", "demo.Flag.verbose"), retry.stream().map(TrialCell::fieldKey).toList(),
        "the exercised field is not retried; the unexercised one is, sc included (the control of the retry)");
    assertEquals(FreshJvmRetry.FIRST_RUN, retry.get(1).firstRun());
    assertNotEquals(cells.get(1).spec(0).seed(), retry.get(1).spec(0).seed(), "the retry's seeds are its own");
    assertEquals(retry.get(1).seed(FreshJvmRetry.FIRST_RUN), retry.get(1).spec(0).seed());
  }

  /** No run read the field, not even each JVM's first: a fresh JVM is that first run again, so no retry. */
  @Test
  void aFieldNoRunReadFromAFreshStartIsNotRetried() {
    List<TrialCell> cells = List.of(cell("demo.Buf.slots[]", "sc"), cell("demo.Buf.slots[]", "oldest"));
    TrialSpec sc = new TrialSpec("demo.Buf.slots[]", TEST, "demo.FlagTest#t", "sc", 1);
    TrialSpec oldest = new TrialSpec("demo.Buf.slots[]", TEST, "demo.FlagTest#t", "oldest", 1);
    TrialOutcome firstInJvm = new TrialOutcome(sc, TrialOutcome.Result.PASS, 10, 0, 0, null, "java …", true, false);
    TrialOutcome later = new TrialOutcome(oldest, TrialOutcome.Result.PASS, 10, 0, 0, null, "java …", false, false);
    assertTrue(FreshJvmRetry.cellsToRetry(cells, List.of(firstInJvm, later)).isEmpty(), "never read from the start");
    TrialOutcome laterRead = new TrialOutcome(oldest, TrialOutcome.Result.PASS, 10, 40, 0, null, "java …", false, false);
    assertEquals(2, FreshJvmRetry.cellsToRetry(cells, List.of(firstInJvm, laterRead)).size(),
        "read without a stale value: state that survives runs may be what hides it");
    assertEquals(2, FreshJvmRetry.cellsToRetry(cells, List.of(later)).size(), "no run from a fresh start: retried");
  }

  @Test
  void failuresTimeoutsAndRunsAlreadyInFreshJvmsAreNotRetried() {
    List<TrialCell> cells = List.of(cell("demo.F.x", "sc"), cell("demo.F.x", "oldest"));
    assertTrue(FreshJvmRetry.cellsToRetry(cells,
        List.of(outcome("demo.F.x", "oldest", TrialOutcome.Result.FAIL, 0, false))).isEmpty(), "flaky, not unexercised");
    assertTrue(FreshJvmRetry.cellsToRetry(cells,
        List.of(outcome("demo.F.x", "oldest", TrialOutcome.Result.TIMEOUT, 0, false))).isEmpty(), "qos evidence");
    assertTrue(FreshJvmRetry.cellsToRetry(cells,
        List.of(outcome("demo.F.x", "oldest", TrialOutcome.Result.PASS, 0, true))).isEmpty(),
        "--jvm-per-trial: a fresh JVM per run already");
  }

  @Test
  void theEvidenceSaysWhichModeServedTheStaleValues() {
    TrialOutcome reusedNone = outcome("demo.F.x", "oldest", TrialOutcome.Result.PASS, 0, false);
    TrialOutcome freshSome = outcome("demo.F.x", "oldest", TrialOutcome.Result.PASS, 7, true);
    TrialOutcome reusedSome = outcome("demo.F.x", "oldest", TrialOutcome.Result.PASS, 3, false);
    assertEquals("fresh JVMs (one run each): repeating the test in one JVM served no stale value",
        FreshJvmRetry.exercisedIn(List.of(reusedNone, freshSome)));
    assertEquals("a reused JVM (the test repeated in one JVM)", FreshJvmRetry.exercisedIn(List.of(reusedSome)));
    assertEquals("fresh JVMs (one run each)", FreshJvmRetry.exercisedIn(List.of(freshSome)));
    assertEquals("a reused JVM (3 stale values) and fresh JVMs (7)", FreshJvmRetry.exercisedIn(List.of(reusedSome, freshSome)));
    assertNull(FreshJvmRetry.exercisedIn(List.of(reusedNone)));
    assertEquals("neither a reused JVM nor fresh JVMs (one run each) served a stale value",
        FreshJvmRetry.exercisedIn(List.of(reusedNone, outcome("demo.F.x", "oldest", TrialOutcome.Result.PASS, 0, true))));
  }
}
