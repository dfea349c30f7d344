package dev.racetriage.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.detect.FieldRaces;
import dev.racetriage.agent.detect.RaceKind;
import dev.racetriage.agent.detect.RunSummary;
import dev.racetriage.agent.detect.SiteTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The runtime's array element records against a vector-clock oracle, on random traces run by real threads through the
 * hooks: the flat records of a short array and the chunked ones of long arrays (chunks of 64 allocated at their first
 * element write, a chunk a range covers whole kept as one uniform record while the array has one owner), through
 * element reads and writes, hoisted-loop ranges (strided too) and bulk calls ({@code Arrays.fill}, {@code
 * System.arraycopy}) whose ranges start, end and cross chunk boundaries, in the owner's mode and after the array became
 * shared. Three threads, forked before the trace, take turns on the steps; two locks give hand-offs and publication.
 * Per array and race kind, the runtime must report exactly the accesses the oracle's h-summary reports (a read or write
 * of an element whose last write is not ordered before it), at the same element indices.
 */
class ArrayElementPropertyTest {
  private static final int TRACES = 300;
  private static final int STEPS = 25;
  private static final int THREADS = 3;
  private static final int LOCKS = 2;
  /**
   * A short array (flat records) and two long ones (chunked: 4 chunks, the last partial; 16 chunks — or flat, while
   * the shadow memory's grant lasts).
   */
  private static final int[] LENGTHS = {100, 200, 1000};

  /**
   * One step: {@code w}/{@code r} an element, {@code W}/{@code R} a range {@code [from, to)} by {@code step}, {@code
   * F} a fill, {@code C} an arraycopy from array {@code target} to array {@code other}, {@code a}/{@code l} a lock.
   */
  private record Step(int thread, char op, int target, int from, int to, int step, int other) {
    @Override
    public String toString() {
      return "t" + thread + op + target + (op == 'a' || op == 'l' ? "" : "[" + from + "," + to + ")/" + step
          + (op == 'C' ? "->" + other : ""));
    }
  }

  @AfterEach
  void uninstall() {
    Hooks.install(null);
  }

  @Test
  void reportedElementRacesAreExactlyTheOraclesOnRandomTraces() throws Exception {
    Random random = new Random(0xC4A7L);
    int racyTraces = 0;
    for (int n = 0; n < TRACES; n++) {
      List<Step> trace = randomTrace(random);
      Map<String, Long> expected = new TreeMap<>();
      Map<String, TreeSet<Integer>> expectedIndices = new TreeMap<>();
      oracle(trace, expected, expectedIndices);
      for (long grant : new long[] {0, ShadowMemory.FLAT_GRANT}) { // long arrays chunked, then flat from the grant
        Map<String, Long> reported = new TreeMap<>();
        Map<String, TreeSet<Integer>> reportedIndices = new TreeMap<>();
        run(trace, reported, reportedIndices, grant, null);
        assertEquals(expected, reported, "trace " + n + ", grant " + grant + ": " + trace);
        for (var e : expectedIndices.entrySet()) {
          if (e.getValue().size() <= 16) { // the aggregator keeps 32 indices per array
            assertEquals(e.getValue(), reportedIndices.get(e.getKey()), "trace " + n + " indices: " + trace);
          }
        }
      }
      racyTraces += expected.isEmpty() ? 0 : 1;
    }
    assertTrue(racyTraces > TRACES / 10 && racyTraces < TRACES * 9 / 10, racyTraces + " racy traces");
  }

  /**
   * The owned-element guards before every element read and write, as instrumented code calls them: the reads the read
   * guard ({@code Hooks.ownedElement}) settles are skipped, the others go through the guarded hook, which fills the
   * guard's cache; the writes the write guard ({@code Hooks.ownedElementWrite}) records itself skip the hook, from one
   * of two sites. Two guards are shared by the three arrays (each access picks one), so entries are replaced and
   * guards contended. The reports, with their indices, must still be exactly the oracle's, with records chunked and
   * flat — so every settled read is one the h-summary orders after its element's last write, and every write the guard
   * records is recorded as the hook would — and the guards must settle a good share of the accesses. (A read guard
   * that trusts the cached shadow without asking whether the reading thread owns it fails this test, and so does a
   * write guard that records a write without asking whether the summary is the writer's current epoch.)
   */
  @Test
  void theOwnedElementGuardSettlesOnlyReadsOrderedAfterTheArraysWrites() throws Exception {
    Random random = new Random(0x6A4DL);
    int[] guarded = new int[4];
    int racyTraces = 0;
    for (int n = 0; n < TRACES; n++) {
      List<Step> trace = new ArrayList<>();
      for (Step s : randomTrace(random)) {
        trace.add(s.op() == 'r' || s.op() == 'w'
            ? new Step(s.thread(), s.op(), s.target(), s.from(), 0, 1, random.nextInt(2)) : s);
        if (s.op() == 'r' && random.nextBoolean()) { // a read again: the guard's cache was filled by the first
          trace.add(new Step(s.thread(), 'r', s.target(), index(random, LENGTHS[s.target()]), 0, 1,
              random.nextInt(2)));
        }
      }
      Map<String, Long> expected = new TreeMap<>();
      Map<String, TreeSet<Integer>> expectedIndices = new TreeMap<>();
      oracle(trace, expected, expectedIndices);
      for (long grant : new long[] {0, ShadowMemory.FLAT_GRANT}) { // long arrays chunked, then flat
        Map<String, Long> reported = new TreeMap<>();
        Map<String, TreeSet<Integer>> reportedIndices = new TreeMap<>();
        run(trace, reported, reportedIndices, grant, guarded);
        assertEquals(expected, reported, "trace " + n + ", grant " + grant + ": " + trace);
        for (var e : expectedIndices.entrySet()) {
          if (e.getValue().size() <= 16) {
            assertEquals(e.getValue(), reportedIndices.get(e.getKey()), "trace " + n + " indices: " + trace);
          }
        }
      }
      racyTraces += expected.isEmpty() ? 0 : 1;
    }
    assertTrue(racyTraces > TRACES / 10, racyTraces + " racy traces");
    assertTrue(guarded[0] > guarded[1] / 10, guarded[0] + " of " + guarded[1] + " reads settled by the guard");
    assertTrue(guarded[2] > guarded[3] / 10, guarded[2] + " of " + guarded[3] + " writes settled by the guard");
  }

  /**
   * The repeated-write guard ({@code Hooks.repeatedElementWrite}) before every element write, as instrumented code
   * calls it at a store in a loop: a write it skips is the thread's last recorded element write again (same element,
   * site and epoch). Writes are repeated, at once or after another step (another thread's access, a release, a range).
   * A skipped write can change how often a racy element is reported (a write of another thread that came between is
   * reported against the first of the two, not again against the second, and later reads are checked against it), so
   * two properties: the oracle that skips what the guard's specification skips finds exactly the racy elements of the
   * oracle that checks every write — no race is lost on an element, none is invented — and the reports are exactly
   * the skipping oracle's, counts and indices (a guard that skips a write after a release fails this). The guard must
   * skip a good share of the writes.
   */
  @Test
  void theRepeatedWriteGuardLosesNoRacyElement() throws Exception {
    Random random = new Random(0x5EE7L);
    int[] repeated = new int[2];
    int racyTraces = 0;
    for (int n = 0; n < TRACES; n++) {
      List<Step> trace = new ArrayList<>();
      Step pending = null;
      for (Step s : randomTrace(random)) {
        Step step = s.op() == 'w' ? new Step(s.thread(), 'w', s.target(), s.from(), 0, 1, random.nextInt(2)) : s;
        trace.add(step);
        if (pending != null) {
          trace.add(pending); // the same write again after another step
          pending = null;
        }
        if (step.op() == 'w') {
          int again = random.nextInt(4);
          for (int k = 0; k < again; k++) {
            trace.add(step); // a run of one colour: the same counter again
          }
          if (random.nextInt(3) == 0) {
            pending = step;
          } else if (random.nextInt(4) == 0) { // a release, the write again (a new epoch: recorded), then a hand-off
            int lock = random.nextInt(LOCKS);
            int other = (step.thread() + 1 + random.nextInt(THREADS - 1)) % THREADS;
            trace.add(new Step(step.thread(), 'l', lock, 0, 0, 0, 0));
            trace.add(step);
            trace.add(new Step(other, 'a', lock, 0, 0, 0, 0)); // ordered after the first write, not the second
            trace.add(new Step(other, random.nextBoolean() ? 'r' : 'w', step.target(), step.from(), 0, 1, 0));
          }
        }
      }
      Map<String, Long> all = new TreeMap<>();
      Map<String, TreeSet<Integer>> allIndices = new TreeMap<>();
      oracle(trace, all, allIndices); // every write checked
      Map<String, Long> expected = new TreeMap<>();
      Map<String, TreeSet<Integer>> expectedIndices = new TreeMap<>();
      oracle(trace, expected, expectedIndices, true); // the guard's repeats skipped
      assertEquals(allIndices, expectedIndices, "skipping loses or invents a racy element, trace " + n + ": " + trace);
      for (long grant : new long[] {0, ShadowMemory.FLAT_GRANT}) {
        Map<String, Long> reported = new TreeMap<>();
        Map<String, TreeSet<Integer>> reportedIndices = new TreeMap<>();
        run(trace, reported, reportedIndices, grant, null, repeated);
        assertEquals(expected, reported, "trace " + n + ", grant " + grant + ": " + trace);
        for (var e : expectedIndices.entrySet()) {
          if (e.getValue().size() <= 16) {
            assertEquals(e.getValue(), reportedIndices.get(e.getKey()), "trace " + n + " indices: " + trace);
          }
        }
      }
      racyTraces += expected.isEmpty() ? 0 : 1;
    }
    assertTrue(racyTraces > TRACES / 10, racyTraces + " racy traces");
    assertTrue(repeated[0] > repeated[1] / 5, repeated[0] + " of " + repeated[1] + " writes skipped by the guard");
  }

  /** An index near a chunk boundary more often than not: where chunked and flat records differ. */
  private static int index(Random random, int length) {
    if (random.nextBoolean()) {
      int boundary = ElementChunks.SIZE * random.nextInt(length / ElementChunks.SIZE + 1);
      return Math.max(0, Math.min(length - 1, boundary + random.nextInt(5) - 2));
    }
    return random.nextInt(length);
  }

  private static List<Step> randomTrace(Random random) {
    List<Step> trace = new ArrayList<>();
    for (int i = 0; i < STEPS; i++) {
      int kind = random.nextInt(14);
      int array = random.nextInt(LENGTHS.length);
      int length = LENGTHS[array];
      // mostly the array's home thread (an owner filling and reading its array), sometimes another
      int thread = kind < 10 && random.nextInt(12) != 0 ? array % THREADS : random.nextInt(THREADS);
      switch (kind) {
        case 0, 1, 2 -> trace.add(new Step(thread, 'w', array, index(random, length), 0, 1, 0));
        case 3, 4 -> trace.add(new Step(thread, 'r', array, index(random, length), 0, 1, 0));
        case 5, 6, 7 -> {
          int from = random.nextInt(4) == 0 ? -random.nextInt(3) : index(random, length);
          int to = random.nextInt(4) == 0 ? length + random.nextInt(3) : from + 1 + random.nextInt(length);
          int step = random.nextInt(3) == 0 ? 1 + random.nextInt(70) : 1;
          char op = kind == 7 ? 'R' : random.nextInt(5) == 0 ? 'F' : 'W';
          trace.add(op == 'F' ? new Step(thread, 'F', array, 0, length, 1, 0)
              : new Step(thread, op, array, from, to, step, 0));
        }
        case 8 -> {
          int other = random.nextInt(3) != 0 ? array : random.nextInt(LENGTHS.length); // mostly within the array
          int shortest = Math.min(length, LENGTHS[other]);
          int count = 1 + random.nextInt(shortest);
          int from = random.nextInt(length - count + 1);
          int to = random.nextInt(LENGTHS[other] - count + 1);
          trace.add(new Step(thread, 'C', array, from, to, count, other));
        }
        case 9 -> trace.add(new Step(thread, 'R', array, 0, length, 1, 0));
        case 10 -> trace.add(new Step(thread, 'l', random.nextInt(LOCKS), 0, 0, 0, 0));
        case 11 -> { // a hand-off: the array's owner releases, another thread acquires
          int lock = random.nextInt(LOCKS);
          trace.add(new Step(array % THREADS, 'l', lock, 0, 0, 0, 0));
          trace.add(new Step(random.nextInt(THREADS), 'a', lock, 0, 0, 0, 0));
        }
        default -> trace.add(new Step(thread, 'a', random.nextInt(LOCKS), 0, 0, 0, 0));
      }
    }
    return trace;
  }

  private static String key(int array) {
    return "pkg.Arrays.a" + array + "[]";
  }

  /** The h-summary on vector clocks, element by element; counts per "key kind" and racy indices per key. */
  private static void oracle(List<Step> trace, Map<String, Long> counts, Map<String, TreeSet<Integer>> indices) {
    oracle(trace, counts, indices, false);
  }

  /**
   * {@code skipRepeats}: a thread's element write ({@code 'w'}, its site {@code other}) is skipped when its last
   * recorded one was the same element from the same site while its own clock component (its epoch) has not moved
   * since; a range write by the thread forgets it — the repeated-write guard's specification.
   */
  private static void oracle(List<Step> trace, Map<String, Long> counts, Map<String, TreeSet<Integer>> indices,
                             boolean skipRepeats) {
    int[][] repeat = new int[THREADS][]; // {array, index, site, epoch} of the thread's last recorded write
    int[][] clocks = new int[THREADS][THREADS];
    for (int t = 0; t < THREADS; t++) {
      clocks[t][t] = 1;
    }
    int[][] locks = new int[LOCKS][THREADS];
    int[][] lastThread = new int[LENGTHS.length][];
    int[][] lastClock = new int[LENGTHS.length][];
    for (int a = 0; a < LENGTHS.length; a++) {
      lastThread[a] = new int[LENGTHS[a]];
      lastClock[a] = new int[LENGTHS[a]];
      Arrays.fill(lastThread[a], -1);
    }
    for (Step s : trace) {
      int[] c = clocks[s.thread()];
      switch (s.op()) {
        case 'a' -> {
          for (int u = 0; u < THREADS; u++) {
            c[u] = Math.max(c[u], locks[s.target()][u]);
          }
        }
        case 'l' -> {
          for (int u = 0; u < THREADS; u++) {
            locks[s.target()][u] = Math.max(locks[s.target()][u], c[u]);
          }
          c[s.thread()]++;
        }
        case 'C' -> { // the destination range is written (checked first), then the source range read
          repeat[s.thread()] = null;
          for (int i = 0; i < s.step(); i++) {
            access(s.thread(), c, s.other(), s.to() + i, true, lastThread, lastClock, counts, indices);
          }
          for (int i = 0; i < s.step(); i++) {
            access(s.thread(), c, s.target(), s.from() + i, false, lastThread, lastClock, counts, indices);
          }
        }
        default -> {
          boolean write = s.op() == 'w' || s.op() == 'W' || s.op() == 'F';
          if (s.op() == 'w' && skipRepeats) {
            int[] mine = {s.target(), s.from(), s.other(), c[s.thread()]};
            if (Arrays.equals(mine, repeat[s.thread()])) {
              continue;
            }
            repeat[s.thread()] = mine;
          } else if ((s.op() == 'W' || s.op() == 'F') && s.from() < s.to()) {
            repeat[s.thread()] = null;
          }
          if (s.op() == 'w' || s.op() == 'r') {
            access(s.thread(), c, s.target(), s.from(), write, lastThread, lastClock, counts, indices);
          } else {
            for (int i = s.from(); i < s.to(); i += s.step()) {
              if (i >= 0 && i < LENGTHS[s.target()]) {
                access(s.thread(), c, s.target(), i, write, lastThread, lastClock, counts, indices);
              }
            }
          }
        }
      }
    }
  }

  private static void access(int thread, int[] c, int array, int i, boolean write, int[][] lastThread,
                             int[][] lastClock, Map<String, Long> counts, Map<String, TreeSet<Integer>> indices) {
    int w = lastThread[array][i];
    if (w >= 0 && lastClock[array][i] > c[w]) {
      counts.merge(key(array) + " " + (write ? RaceKind.WW : RaceKind.WR), 1L, Long::sum);
      indices.computeIfAbsent(key(array), k -> new TreeSet<>()).add(i);
    }
    if (write) {
      lastThread[array][i] = thread;
      lastClock[array][i] = c[thread];
    }
  }

  /** Runs the trace through the hooks, each step on its thread, one step at a time. */
  private static void run(List<Step> trace, Map<String, Long> counts, Map<String, TreeSet<Integer>> indices,
                          long flatGrant, int[] guarded) throws InterruptedException {
    run(trace, counts, indices, flatGrant, guarded, null);
  }

  /** {@code repeated}: the repeated-write guard before every element write, from one of two sites. */
  private static void run(List<Step> trace, Map<String, Long> counts, Map<String, TreeSet<Integer>> indices,
                          long flatGrant, int[] guarded, int[] repeated) throws InterruptedException {
    FieldRegistry fields = new FieldRegistry();
    DetectRuntime runtime = new DetectRuntime(new SiteTable(), fields, new RunSummary(), 0);
    runtime.shadowMemory().flatGrant(flatGrant);
    Hooks.install(runtime);
    long[][] arrays = new long[LENGTHS.length][];
    for (int a = 0; a < LENGTHS.length; a++) {
      arrays[a] = new long[LENGTHS[a]];
      Hooks.arrayInField(arrays[a], fields.id("pkg/Arrays", "a" + a));
    }
    Object[] locks = new Object[LOCKS];
    for (int l = 0; l < LOCKS; l++) {
      locks[l] = new Object();
    }
    TakingTurns.run(THREADS, trace.size(), i -> trace.get(i).thread(), i -> {
      Step s = trace.get(i);
      long[] array = arrays[s.target()];
      switch (s.op()) {
        case 'w' -> {
          if (repeated != null) {
            int site = s.other() == 0 ? 1 : 7;
            ThreadShadow t = ThreadShadow.current();
            boolean skipped = Hooks.repeatedElementWrite(array, s.from(), site, t);
            if (!skipped) {
              Hooks.writeElement(array, s.from(), site, t);
            }
            synchronized (repeated) {
              repeated[0] += skipped ? 1 : 0;
              repeated[1]++;
            }
          } else if (guarded == null) {
            Hooks.writeElement(array, s.from(), 1);
          } else { // the write guard first, as instrumented code calls it, from one of two sites
            int site = s.other() == 0 ? 1 : 7;
            if (Hooks.ownedElementWrite(array, s.from(), site, null) != null) {
              synchronized (guarded) {
                guarded[2]++;
              }
            } else {
              Hooks.writeElement(array, s.from(), site, s.other(), null);
            }
            synchronized (guarded) {
              guarded[3]++;
            }
          }
        }
        case 'r' -> {
          if (guarded == null) {
            Hooks.readElement(array, s.from(), 2);
          } else {
            int guard = s.other(); // two loads shared by the three arrays: hits, replacements and contention
            if (Hooks.ownedElement(array, guard)) {
              synchronized (guarded) {
                guarded[0]++;
              }
            } else {
              Hooks.readElement(array, s.from(), 2, guard, null);
            }
            synchronized (guarded) {
              guarded[1]++;
            }
          }
        }
        case 'W' -> Hooks.writeRange(array, s.from(), s.to(), s.step(), 3);
        case 'R' -> Hooks.readRange(array, s.from(), s.to(), s.step(), 4);
        case 'F' -> BulkHooks.writeAll(array, 5);
        case 'C' -> BulkHooks.arraycopy(array, s.from(), arrays[s.other()], s.to(), s.step(), 6);
        case 'a' -> Hooks.monitorEnter(locks[s.target()]);
        default -> Hooks.monitorExit(locks[s.target()]);
      }
    });
    for (FieldRaces f : runtime.aggregator().fields()) {
      f.countByKind().forEach((kind, n) -> counts.merge(f.fieldKey() + " " + kind, n, Long::sum));
      indices.computeIfAbsent(f.fieldKey(), k -> new TreeSet<>()).addAll(f.indices());
    }
  }

  /**
   * The memory side: a long array's records are allocated per touched chunk; a fill by its owner allocates none (one
   * uniform record per chunk), and the first element write after it allocates only its chunk, filled with the fill's
   * record — a later unordered reader still races with the fill on the other elements of that chunk.
   */
  @Test
  void aLongArrayAllocatesOnlyTheChunksItsElementWritesTouch() throws Exception {
    FieldRegistry fields = new FieldRegistry();
    DetectRuntime runtime = new DetectRuntime(new SiteTable(), fields, new RunSummary(), 0);
    runtime.shadowMemory().flatGrant(0); // past the flat records' grant
    Hooks.install(runtime);
    long[] array = new long[10_000];
    Hooks.arrayInField(array, fields.id("pkg/Arrays", "big"));
    Thread owner = new Thread(() -> {
      BulkHooks.writeAll(array, 5);
      Hooks.writeElement(array, 130, 1);
      Hooks.writeElement(array, 9_999, 1);
    }, "owner");
    Hooks.threadStarting(owner);
    owner.start();
    owner.join();
    ObjectShadow s = runtime.shadowMemory().peek(array);
    assertNull(s.elementEpochs(), "a long array has no flat records");
    ElementChunks chunks = s.elementChunks();
    assertNotNull(chunks);
    assertEquals(2, chunks.allocatedChunks(), "the chunks of elements 130 and 9999 only");
    Thread reader = new Thread(() -> {
      Hooks.readElement(array, 129, 2); // in the allocated chunk, last written by the fill
      Hooks.readElement(array, 5_000, 2); // in a uniform chunk
      Hooks.readRange(array, 0, 64, 1, 4); // a whole uniform chunk
    }, "reader");
    Hooks.threadStarting(reader);
    reader.start();
    reader.join();
    FieldRaces races = runtime.aggregator().fields().get(0);
    assertEquals(Map.of(RaceKind.WR, 66L), races.countByKind());
    assertEquals("owner", races.first().previous().threadName());
    assertEquals(2, chunks.allocatedChunks(), "reads allocate nothing");
  }

  /** The grant: long arrays get flat records first come first served until it is spent, then chunks. */
  @Test
  void longArraysGetFlatRecordsUntilTheGrantIsSpent() {
    FieldRegistry fields = new FieldRegistry();
    DetectRuntime runtime = new DetectRuntime(new SiteTable(), fields, new RunSummary(), 0);
    runtime.shadowMemory().flatGrant(1_500);
    Hooks.install(runtime);
    long[] first = new long[1_000];
    long[] second = new long[1_000];
    long[] small = new long[ObjectShadow.ArrayShadow.FLAT_MAX];
    Hooks.writeElement(first, 999, 1);
    Hooks.writeElement(second, 999, 1);
    Hooks.writeElement(small, 0, 1);
    ObjectShadow a = runtime.shadowMemory().peek(first);
    ObjectShadow b = runtime.shadowMemory().peek(second);
    assertNotNull(a.elementEpochs(), "granted: flat");
    assertNull(a.elementChunks());
    assertNull(b.elementEpochs(), "past the grant: chunks");
    assertEquals(1, b.elementChunks().allocatedChunks());
    assertNotNull(runtime.shadowMemory().peek(small).elementEpochs(), "short arrays are flat without the grant");
  }
}
