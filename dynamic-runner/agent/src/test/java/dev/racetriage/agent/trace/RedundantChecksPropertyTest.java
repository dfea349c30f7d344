package dev.racetriage.agent.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The soundness argument of the agent's redundant check elimination (instrument.RedundantChecks) on random traces: a
 * thread's read or write of a location needs no check when the same thread wrote (and checked) that location since
 * its last synchronisation event — acquire, release, volatile access, fork, join, and (as in the instrumenter, which
 * kills at {@code new} and class initialisation) New and ClinitWrite. Each trace is rewritten so, dropping every such
 * access; the literal h-summary ({@link ReferenceDetection}) must then report exactly the locations it reports on the
 * original trace, and those must really race (the vector-clock oracle). Two mutants must break it: dropping across
 * synchronisation, and RedCard's read-covers-read rule (the h-summary reports WR, never RW: "t reads x, u writes x, t
 * reads x" is reported only at the second read).
 */
class RedundantChecksPropertyTest {
  private static final int TRACES = 3000;

  private enum Rule { WRITES_COVER, ACROSS_SYNC, READS_COVER }

  @Test
  void droppingAccessesAnEarlierWriteOfTheThreadCoversReportsTheSameLocations() {
    RandomTraces gen = new RandomTraces(0x5EDCA4DL, 4, 2, 2, 120);
    Random random = new Random(7);
    int dropped = 0;
    int accesses = 0;
    int racyTraces = 0;
    for (int n = 0; n < TRACES; n++) {
      Trace trace = repeat(gen.next(), random);
      Set<Integer> racing = VectorClockOracle.racingLocations(trace);
      Set<Integer> original = reported(trace);
      assertTrue(racing.containsAll(original), "the h-summary reports a location the oracle does not: " + trace);
      Trace reduced = drop(trace, Rule.WRITES_COVER);
      assertEquals(original, reported(reduced), "trace " + n + "\noriginal: " + trace + "\nreduced: " + reduced);
      dropped += trace.events().size() - reduced.events().size();
      accesses += (int) trace.events().stream().filter(e -> e instanceof Event.Read || e instanceof Event.Write)
          .count();
      racyTraces += original.isEmpty() ? 0 : 1;
    }
    assertTrue(racyTraces > TRACES / 10, "the traces must race: " + racyTraces);
    assertTrue(dropped * 20 > accesses, "a good share of the accesses is dropped: " + dropped + " of " + accesses);
  }

  @Test
  void droppingAcrossSynchronisationOrLettingReadsCoverChangesWhatIsReported() {
    for (Rule mutant : List.of(Rule.ACROSS_SYNC, Rule.READS_COVER)) {
      RandomTraces gen = new RandomTraces(0x5EDCA4DL, 4, 2, 2, 120);
      Random random = new Random(7);
      int differing = 0;
      for (int n = 0; n < TRACES; n++) {
        Trace trace = repeat(gen.next(), random);
        differing += reported(trace).equals(reported(drop(trace, mutant))) ? 0 : 1;
      }
      assertTrue(differing > 0, mutant + " must lose (or add) reported locations on some trace");
    }
  }

  /**
   * The trace with some accesses done again by their thread a few events later, before its next synchronisation (a
   * method re-reading or re-writing a location), so that other threads' accesses fall between the two.
   */
  private static Trace repeat(Trace trace, Random random) {
    Trace.Builder out = Trace.builder();
    Map<Integer, List<Event>> pending = new HashMap<>();
    Map<Integer, Integer> due = new HashMap<>();
    for (Event e : trace.events()) {
      int t = e.thread();
      boolean access = e instanceof Event.Read || e instanceof Event.Write;
      if (!access) {
        flush(out, pending, t);
      }
      if (e instanceof Event.Join j) {
        flush(out, pending, j.joined()); // a thread's accesses come before its join
      }
      out.add(e);
      if (access && random.nextInt(3) == 0) {
        pending.computeIfAbsent(t, k -> new ArrayList<>()).add(e);
        due.putIfAbsent(t, random.nextInt(8));
      }
      for (Integer u : new ArrayList<>(pending.keySet())) {
        int left = due.merge(u, -1, Integer::sum);
        if (left < 0) {
          flush(out, pending, u);
          due.remove(u);
        }
      }
    }
    for (Integer u : new ArrayList<>(pending.keySet())) {
      flush(out, pending, u);
    }
    return out.build();
  }

  private static void flush(Trace.Builder out, Map<Integer, List<Event>> pending, int t) {
    List<Event> again = pending.remove(t);
    if (again != null) {
      again.forEach(out::add);
    }
  }

  private static Set<Integer> reported(Trace trace) {
    ReferenceDetection detection = new ReferenceDetection();
    trace.run(detection);
    Set<Integer> locations = new TreeSet<>();
    for (TraceRace r : detection.races()) {
      locations.add(r.location());
    }
    return locations;
  }

  /** The trace without the accesses {@code rule} calls covered. */
  private static Trace drop(Trace trace, Rule rule) {
    Trace.Builder out = Trace.builder();
    Map<Integer, Set<Integer>> written = new HashMap<>(); // per thread: locations written since its last sync
    Map<Integer, Set<Integer>> read = new HashMap<>();
    for (Event e : trace.events()) {
      int t = e.thread();
      Set<Integer> w = written.computeIfAbsent(t, k -> new HashSet<>());
      Set<Integer> r = read.computeIfAbsent(t, k -> new HashSet<>());
      if (e instanceof Event.Read rd) {
        if (w.contains(rd.location()) || (rule == Rule.READS_COVER && r.contains(rd.location()))) {
          continue;
        }
        r.add(rd.location());
      } else if (e instanceof Event.Write wr) {
        if (w.contains(wr.location())) {
          continue;
        }
        w.add(wr.location());
      } else if (rule != Rule.ACROSS_SYNC) {
        w.clear(); // a synchronisation event of t (or an allocation, a class initialisation)
        r.clear();
      }
      out.add(e);
    }
    return out.build();
  }
}
