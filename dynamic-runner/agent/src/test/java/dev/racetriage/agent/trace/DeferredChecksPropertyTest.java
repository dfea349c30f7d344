package dev.racetriage.agent.trace;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The soundness argument of the agent's loop check placement (instrument.LoopCheckHoister), and of the range checks
 * that stand for a straight-line stretch's element reads or writes (instrument.RedundantChecks), on random traces: a
 * thread's accesses may be checked later than they happen, as long as no synchronisation of that thread lies in
 * between — at a loop exit, with the clock the thread had at the accesses — with its writes before its reads and
 * without the reads of locations it also wrote there (the write check stands for them). Each trace is rewritten so:
 * every access is, at random, checked in place or deferred to a random later point before the thread's next
 * synchronisation event, creation, thread end (a joiner sees the thread's checks done) or the trace's end; the literal
 * h-summary ({@link dev.racetriage.agent.detect.HSummaryReference} via {@link ReferenceDetection}) then must report races
 * only on locations that really race in the original trace: two accesses by different threads, one a write, unordered
 * by happens-before. (Races may be missed: the price of deferral, not checked here.)
 */
class DeferredChecksPropertyTest {
  private static final int TRACES = 3000;

  @Test
  void deferredChecksReportOnlyLocationsThatRace() {
    RandomTraces gen = new RandomTraces(0xD1FFEAL, 5, 2, 2, 120);
    Random choices = new Random(42);
    int reportedInOriginal = 0;
    int reportedDeferred = 0;
    for (int n = 0; n < TRACES; n++) {
      Trace trace = gen.next();
      Set<Integer> racing = VectorClockOracle.racingLocations(trace);
      ReferenceDetection original = new ReferenceDetection();
      trace.run(original);
      for (TraceRace r : original.races()) {
        assertTrue(racing.contains(r.location()), "the oracle disagrees with the h-summary itself: trace " + n
            + " location " + r.location() + "\n" + trace);
      }
      Trace deferred = defer(trace, choices);
      ReferenceDetection checked = new ReferenceDetection();
      deferred.run(checked);
      for (TraceRace r : checked.races()) {
        if (!racing.contains(r.location())) {
          fail("trace " + n + ": deferred checks report location " + r.location() + ", which does not race\n"
              + "original: " + trace + "\ndeferred: " + deferred);
        }
      }
      reportedInOriginal += locations(original.races()).size();
      reportedDeferred += locations(checked.races()).size();
    }
    assertTrue(reportedDeferred > TRACES / 10, "the traces must race: " + reportedDeferred);
    assertTrue(reportedDeferred * 10 > reportedInOriginal * 7,
        "deferral misses some races, not most: " + reportedDeferred + " of " + reportedInOriginal);
  }

  private static Set<Integer> locations(List<TraceRace> races) {
    Set<Integer> s = new TreeSet<>();
    for (TraceRace r : races) {
      s.add(r.location());
    }
    return s;
  }

  /** The trace with deferred checks, as the hoisted loops make them. */
  private static Trace defer(Trace trace, Random random) {
    Trace.Builder out = Trace.builder();
    Map<Integer, List<Event>> pending = new HashMap<>();
    for (Event e : trace.events()) {
      int t = e.thread();
      if (e instanceof Event.Read || e instanceof Event.Write) {
        if (random.nextInt(5) < 3) {
          pending.computeIfAbsent(t, k -> new ArrayList<>()).add(e);
        } else {
          out.add(e);
        }
        if (random.nextInt(6) == 0) {
          flush(out, pending, t); // a loop exit
        }
        continue;
      }
      flush(out, pending, t);
      if (e instanceof Event.Join j) {
        flush(out, pending, j.joined()); // the joined thread left its loops before it ended
      }
      out.add(e);
    }
    for (Integer t : new ArrayList<>(pending.keySet())) {
      flush(out, pending, t);
    }
    return out.build();
  }

  /** The range checks at a loop exit: the locations written (last value), then the ones only read. */
  private static void flush(Trace.Builder out, Map<Integer, List<Event>> pending, int t) {
    List<Event> accesses = pending.remove(t);
    if (accesses == null) {
      return;
    }
    Map<Integer, Long> written = new LinkedHashMap<>();
    Set<Integer> read = new LinkedHashSet<>();
    for (Event e : accesses) {
      if (e instanceof Event.Write w) {
        written.put(w.location(), w.value());
      } else {
        read.add(((Event.Read) e).location());
      }
    }
    for (Map.Entry<Integer, Long> w : written.entrySet()) {
      out.wr(t, w.getKey(), w.getValue());
    }
    for (int x : read) {
      if (!written.containsKey(x)) {
        out.rd(t, x);
      }
    }
  }
}
