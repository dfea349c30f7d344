package dev.racetriage.runner.triage;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.races.Lifecycle;
import dev.racetriage.store.races.RaceSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a detection says about the stored races it did not see. A race is {@code fixed} by this run when every test
 * that exercised it ran under the agent after passing its baseline, and the race did not show: the tests that could
 * show it did, and it was not there. A race whose tests did not all run (another {@code --tests}, a test that failed
 * or hung) is left as it was: "not re-checked". A detection cut short fixes nothing. Stored races the detection did
 * see again are recorded by the caller ({@code RaceRepository.upsert}), which reopens a fixed one as a regression.
 */
public final class RaceResolution {
  private RaceResolution() {}

  /** The races this run fixed, the fixed ones it saw again, and those it could not re-check (field keys). */
  public record Outcome(List<String> fixed, List<String> regressed, List<String> notRechecked, boolean cutShort) {
    public List<String> describe() {
      List<String> lines = new ArrayList<>();
      if (!fixed.isEmpty()) {
        lines.add("Fixed: " + String.join(", ", fixed) + " — no longer detected although every test that exercised "
            + (fixed.size() == 1 ? "it" : "them") + " ran and passed; " + (fixed.size() == 1 ? "it leaves" : "they leave")
            + " the open races ('racetriage report --state fixed' lists fixed races).");
      }
      if (!regressed.isEmpty()) {
        lines.add("Regressed: " + String.join(", ", regressed) + " — fixed earlier and detected again; open again.");
      }
      if (!notRechecked.isEmpty()) {
        lines.add(notRechecked.size() + " stored race(s) not re-checked: the tests that exercised them did not all run "
            + "and pass in this run, so they keep their state (" + abbreviate(notRechecked) + ").");
      }
      if (cutShort) {
        lines.add("Detection was cut short, so no stored race was marked fixed by this run.");
      }
      return lines;
    }
  }

  /**
   * Marks the races {@code d} shows fixed (by run {@code runId}) and tells which stored races it re-checked. Call it
   * before the detected races are stored, in the same transaction.
   */
  public static Outcome apply(TriageStore store, long runId, Detection d) {
    Set<String> hungUnderAgent = d.hungTests().stream().filter(h -> "detect".equals(h.phase()))
        .map(HungTest::test).collect(Collectors.toSet());
    List<String> fixed = new ArrayList<>();
    List<String> notRechecked = new ArrayList<>();
    for (Map.Entry<FieldKey, List<String>> race : store.races().unfixedWithTests().entrySet()) {
      String key = race.getKey().toString();
      if (d.races().containsKey(key) || d.leftOutRaces().contains(key)) continue;
      List<String> tests = race.getValue();
      boolean rechecked = d.complete() && !tests.isEmpty()
          && tests.stream().allMatch(t -> d.testsByName().containsKey(t) && !hungUnderAgent.contains(t));
      if (rechecked) {
        store.races().markFixed(race.getKey(), runId, "not detected by run #" + runId + "; the test(s) that exercised "
            + "it ran and passed: " + abbreviate(tests));
        fixed.add(key);
      } else {
        notRechecked.add(key);
      }
    }
    List<String> regressed = new ArrayList<>();
    for (String key : d.races().keySet()) {
      store.races().find(FieldKey.parse(key)).map(RaceSummary::lifecycle)
          .filter(l -> l == Lifecycle.FIXED).ifPresent(l -> regressed.add(key));
    }
    return new Outcome(fixed, regressed, notRechecked, !d.complete() && !notRechecked.isEmpty());
  }

  private static String abbreviate(List<String> names) {
    return names.size() <= 5 ? String.join(", ", names)
        : String.join(", ", names.subList(0, 5)) + " and " + (names.size() - 5) + " more";
  }
}
