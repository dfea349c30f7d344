package dev.racetriage.agent.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.detect.RaceKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link WcpAnalysis} on traces: the empty-{@code synchronized} schedule and its race-free variants step by
 * step, and on 5000 random traces the predictions of the vector-clock algorithm against an oracle that computes the
 * relations of the definition literally — happens-before as the transitive closure of thread order and
 * release→acquire, fork and join edges; WCP as the least relation holding rule (a) (a transparent section's release
 * before a later section's access that conflicts with it), the hard edges (opaque sections, volatiles, fork, join),
 * rule (b) and closed under composition with happens-before on both sides (rule (c)). A read or write is a
 * predicted race iff the location's last write is another thread's, not WCP-before it and happens-before it.
 */
class WcpAnalysisTest {
  /** Trace notation: {@code a}/{@code A} acquire (transparent/opaque), {@code r}elease, {@code R}ead,
   * {@code W}rite, {@code s}ync release, {@code S}ync acquire, {@code f}ork, {@code j}oin. */
  private record Ev(char op, int thread, int target) {
    boolean access() {
      return op == 'R' || op == 'W';
    }

    @Override
    public String toString() {
      return op + "(" + thread + "," + target + ")";
    }
  }

  /** Runs a trace through the analysis: the events that are predicted races, with their kinds and witnesses. */
  private static Map<Integer, WcpAnalysis.Prediction> run(List<Ev> trace) {
    WcpAnalysis wcp = new WcpAnalysis(tid -> "T" + tid);
    Map<Integer, WcpAnalysis.Lock> locks = new HashMap<>();
    Map<Integer, WcpAnalysis.Sync> syncs = new HashMap<>();
    Map<Integer, WcpAnalysis.Location> locations = new HashMap<>();
    Map<Integer, WcpAnalysis.Prediction> predicted = new HashMap<>();
    for (int i = 0; i < trace.size(); i++) {
      Ev e = trace.get(i);
      WcpAnalysis.Prediction p = null;
      switch (e.op) {
        case 'a', 'A' -> wcp.acquire(e.thread, locks.computeIfAbsent(e.target, k -> new WcpAnalysis.Lock("m" + k)),
            e.op == 'a');
        case 'r' -> wcp.release(e.thread, locks.get(e.target));
        case 's' -> wcp.syncRelease(e.thread, syncs.computeIfAbsent(e.target, k -> new WcpAnalysis.Sync()));
        case 'S' -> wcp.syncAcquire(e.thread, syncs.computeIfAbsent(e.target, k -> new WcpAnalysis.Sync()));
        case 'f' -> wcp.fork(e.thread, e.target);
        case 'j' -> wcp.join(e.thread, e.target);
        case 'R' -> p = wcp.read(e.thread, locations.computeIfAbsent(e.target, k -> new WcpAnalysis.Location()));
        case 'W' -> p = wcp.write(e.thread, locations.computeIfAbsent(e.target, k -> new WcpAnalysis.Location()),
            i, false);
        default -> throw new AssertionError(e);
      }
      if (p != null) {
        predicted.put(i, p);
      }
    }
    return predicted;
  }

  private static List<Ev> parse(String trace) {
    List<Ev> events = new ArrayList<>();
    for (String word : trace.trim().split("\\s+")) {
      events.add(new Ev(word.charAt(0), word.charAt(1) - '0', word.charAt(2) - '0'));
    }
    return events;
  }

  @Test
  void emptySectionsOnOneLockPredictTheRaceTheyHid() {
    // T1: x = 1; synchronized (m) {}     T2: synchronized (m) {}; x = 2   (the schedule)
    Map<Integer, WcpAnalysis.Prediction> p = run(parse("f01 f02 W10 a10 r10 a20 r20 W20"));
    assertEquals(List.of(7), new ArrayList<>(p.keySet()));
    assertEquals(RaceKind.WW, p.get(7).kind());
    assertEquals(1, p.get(7).writerTid());
    assertEquals(2, p.get(7).writerSite());
    assertEquals("flip m0: T1 released it before T2 acquired it, and their critical sections have no conflicting"
        + " access", p.get(7).witness());
    // the read of x after it: WR, same witness
    assertEquals(RaceKind.WR, run(parse("f01 f02 W10 a10 r10 a20 r20 R20")).get(7).kind());
  }

  @Test
  void conflictingSectionsOpaqueSectionsAndHardEdgesPredictNothing() {
    // the writes inside the lock: ordered by the lock (and not a race at all)
    assertTrue(run(parse("f01 f02 a10 W10 r10 a20 W20 r20")).isEmpty());
    // sections that conflict on y order the accesses around them (rule (a) composed with thread order)
    assertTrue(run(parse("f01 f02 W10 a10 W11 r10 a20 R21 r20 W20")).isEmpty());
    // an opaque section (it calls code the agent does not see) orders as happens-before
    assertTrue(run(parse("f01 f02 W10 A10 r10 a20 r20 W20")).isEmpty());
    assertTrue(run(parse("f01 f02 W10 a10 r10 A20 r20 W20")).isEmpty());
    // a volatile hand-off, fork and join stay hard
    assertTrue(run(parse("f01 f02 W10 s10 S20 W20")).isEmpty());
    assertTrue(run(parse("W00 f01 W10 j01 W00")).isEmpty());
  }

  @Test
  void ruleBOrdersReleasesWhoseSectionsAreOrdered() {
    // T1's section on m contains an acquire of n that conflicts (on y) with T2's section on n, which T2 holds
    // inside its section on m: acq(T1,m) ≺ rel(T2,m) so rel(T1,m) ≺ rel(T2,m), and x's accesses are ordered
    List<Ev> trace = parse("f01 f02 W10 a10 a11 W11 r11 r10 a20 a21 R21 r21 r20 W20");
    assertTrue(run(trace).isEmpty());
    assertTrue(oracle(trace).isEmpty());
  }

  @Test
  void predictionsAreExactlyTheOraclesOnRandomTraces() {
    Random random = new Random(0xC0FFEEL);
    int withPredictions = 0;
    for (int n = 0; n < 5000; n++) {
      List<Ev> trace = randomTrace(random);
      Map<Integer, WcpAnalysis.Prediction> got = run(trace);
      Map<Integer, RaceKind> expected = oracle(trace);
      Map<Integer, RaceKind> gotKinds = new HashMap<>();
      got.forEach((i, p) -> gotKinds.put(i, p.kind()));
      assertEquals(new TreeSet<>(expected.entrySet().stream().map(Object::toString).toList()),
          new TreeSet<>(gotKinds.entrySet().stream().map(Object::toString).toList()), "trace " + trace);
      for (WcpAnalysis.Prediction p : got.values()) {
        assertNotNull(p.witness());
      }
      withPredictions += expected.isEmpty() ? 0 : 1;
    }
    assertTrue(withPredictions > 100, "too few traces with predicted races: " + withPredictions);
  }

  @Test
  void aLockWhoseLogOverflowsOrdersAsHappensBefore() {
    StringBuilder trace = new StringBuilder("f01 f02 W10 ");
    for (int i = 0; i < WcpAnalysis.LOG_LIMIT + 2; i++) {
      trace.append("a10 r10 ");
    }
    trace.append("a20 r20 W20");
    assertNull(run(parse(trace.toString())).get(parse(trace.toString()).size() - 1));
  }

  // ---- random traces ----

  private static List<Ev> randomTrace(Random random) {
    int threads = 3;
    List<Ev> trace = new ArrayList<>();
    trace.add(new Ev('f', 0, 1));
    trace.add(new Ev('f', 0, 2));
    List<List<Integer>> held = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      held.add(new ArrayList<>());
    }
    int[] owner = {-1, -1};
    int steps = 16 + random.nextInt(30);
    for (int i = 0; i < steps; i++) {
      int t = random.nextInt(threads);
      int k = random.nextInt(14);
      List<Integer> mine = held.get(t);
      if (k < 4) {
        int lock = random.nextInt(2);
        if (owner[lock] == -1) {
          owner[lock] = t;
          mine.add(lock);
          trace.add(new Ev(random.nextInt(4) == 0 ? 'A' : 'a', t, lock));
        }
      } else if (k < 7) {
        if (!mine.isEmpty()) {
          int lock = mine.remove(mine.size() - 1);
          owner[lock] = -1;
          trace.add(new Ev('r', t, lock));
        }
      } else if (k < 10) {
        trace.add(new Ev('W', t, random.nextInt(2)));
      } else if (k < 13) {
        trace.add(new Ev('R', t, random.nextInt(2)));
      } else {
        trace.add(new Ev(random.nextBoolean() ? 's' : 'S', t, 0));
      }
    }
    for (int t = 0; t < threads; t++) {
      List<Integer> mine = held.get(t);
      while (!mine.isEmpty()) {
        trace.add(new Ev('r', t, mine.remove(mine.size() - 1)));
      }
    }
    trace.add(new Ev('j', 0, 1));
    trace.add(new Ev('j', 0, 2));
    trace.add(new Ev(random.nextBoolean() ? 'R' : 'W', 0, random.nextInt(3)));
    return trace;
  }

  // ---- the oracle: the relations of the definition, computed literally ----

  private record Section(int acquire, int release, int lock, boolean transparent, List<Integer> events) {
  }

  private static Map<Integer, RaceKind> oracle(List<Ev> trace) {
    int n = trace.size();
    boolean[][] hb = new boolean[n][n];
    boolean[][] hard = new boolean[n][n];
    List<Section> sections = sections(trace);
    for (int i = 0; i < n; i++) {
      for (int j = i; j < n; j++) {
        if (trace.get(i).thread == trace.get(j).thread) {
          hb[i][j] = true; // thread order (reflexive)
        }
      }
    }
    for (Section a : sections) {
      for (Section b : sections) {
        if (a.lock == b.lock && a.release < b.acquire) {
          hb[a.release][b.acquire] = true;
          if (!a.transparent || !b.transparent) {
            hard[a.release][b.acquire] = true;
          }
        }
      }
    }
    for (int i = 0; i < n; i++) {
      Ev e = trace.get(i);
      for (int j = i + 1; j < n; j++) {
        Ev f = trace.get(j);
        boolean edge = e.op == 's' && f.op == 'S' && e.target == f.target
            || e.op == 'f' && f.thread == e.target
            || f.op == 'j' && e.thread == f.target;
        if (edge) {
          hb[i][j] = true;
          hard[i][j] = true;
        }
      }
    }
    close(hb);
    boolean[][] wcp = hard;
    for (Section a : sections) { // rule (a)
      for (Section b : sections) {
        if (a.lock == b.lock && a.release < b.acquire && a.transparent && b.transparent) {
          for (int e1 : a.events) {
            for (int e2 : b.events) {
              if (conflict(trace.get(e1), trace.get(e2))) {
                wcp[a.release][e2] = true;
              }
            }
          }
        }
      }
    }
    for (boolean changed = true; changed; ) {
      changed = false;
      for (Section a : sections) { // rule (b)
        for (Section b : sections) {
          if (a.lock == b.lock && a.release < b.acquire && wcp[a.acquire][b.release] && !wcp[a.release][b.release]) {
            wcp[a.release][b.release] = true;
            changed = true;
          }
        }
      }
      boolean[][] composed = compose(hb, compose(wcp, hb)); // rule (c)
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          if (composed[i][j] && !wcp[i][j]) {
            wcp[i][j] = true;
            changed = true;
          }
        }
      }
    }
    Map<Integer, RaceKind> races = new HashMap<>();
    Map<Integer, Integer> lastWrite = new HashMap<>();
    for (int j = 0; j < n; j++) {
      Ev e = trace.get(j);
      if (!e.access()) {
        continue;
      }
      Integer i = lastWrite.get(e.target);
      if (i != null && trace.get(i).thread != e.thread && !wcp[i][j] && hb[i][j]) {
        races.put(j, e.op == 'R' ? RaceKind.WR : RaceKind.WW);
      }
      if (e.op == 'W') {
        lastWrite.put(e.target, j);
      }
    }
    return races;
  }

  private static boolean conflict(Ev a, Ev b) {
    return a.access() && b.access() && a.target == b.target && (a.op == 'W' || b.op == 'W');
  }

  /** Outermost sections with the accesses inside them (nested sections' accesses count for every enclosing one). */
  private static List<Section> sections(List<Ev> trace) {
    List<Section> sections = new ArrayList<>();
    for (int i = 0; i < trace.size(); i++) {
      Ev e = trace.get(i);
      if (e.op == 'a' || e.op == 'A') {
        List<Integer> inside = new ArrayList<>();
        for (int j = i + 1; j < trace.size(); j++) {
          Ev f = trace.get(j);
          if (f.thread != e.thread) {
            continue;
          }
          if (f.op == 'r' && f.target == e.target) {
            sections.add(new Section(i, j, e.target, e.op == 'a', inside));
            break;
          }
          if (f.access()) {
            inside.add(j);
          }
        }
      }
    }
    return sections;
  }

  private static void close(boolean[][] r) {
    int n = r.length;
    for (int k = 0; k < n; k++) {
      for (int i = 0; i < n; i++) {
        if (r[i][k]) {
          for (int j = 0; j < n; j++) {
            r[i][j] |= r[k][j];
          }
        }
      }
    }
  }

  private static boolean[][] compose(boolean[][] a, boolean[][] b) {
    int n = a.length;
    boolean[][] c = new boolean[n][n];
    for (int i = 0; i < n; i++) {
      for (int k = 0; k < n; k++) {
        if (a[i][k]) {
          for (int j = 0; j < n; j++) {
            c[i][j] |= b[k][j];
          }
        }
      }
    }
    return c;
  }
}
