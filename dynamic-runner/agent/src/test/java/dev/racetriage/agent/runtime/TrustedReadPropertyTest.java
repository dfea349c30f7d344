package dev.racetriage.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.detect.FieldRaces;
import dev.racetriage.agent.detect.RunSummary;
import dev.racetriage.agent.detect.SiteTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The trusted pointer read's cover check ({@code DetectRuntime.coveredTrustedRead}, the body of
 * {@code Hooks.trustedReferenceRead}), and the atomic acquire's ({@code DetectRuntime.coveredAtomicAcquire}, in
 * {@code Hooks.atomicAfter}: a volatile get of the holder), against a vector-clock oracle, on random traces run by real threads through the
 * hooks. A lock-free JDK structure publishes with a compare-and-set on a node and its readers follow the node's
 * pointer with a plain load: the agent makes that load an acquire of the node's atomic clock. Three threads write and
 * read fields of data objects, compare-and-set or release-store holders (nodes), and read pointers out of them; the
 * races reported must be exactly the oracle's, and wherever the cover check settles a pointer read (no call, no
 * acquire) the oracle must say the reader's clock already covers everything released on that holder. Holders of a
 * class with a shadow slot take the check, and those with a releaser field too (it names the holder's one releaser,
 * without the shadow); a holder without a slot never does (the full path looks in the table).
 */
class TrustedReadPropertyTest {
  private static final int TRACES = 300;
  private static final int STEPS = 40;
  private static final int THREADS = 3;
  private static final int OBJECTS = 3;
  private static final int FIELDS = 2;
  /**
   * Holder 0 has a slot; holders 1 and 3 a slot and a releaser field; holder 2 neither; holder 4 is an array (no
   * slot either: an atomic read of it finds its shadow in the thread's ways, as a hash table's bucket array).
   */
  private static final int HOLDERS = 5;
  private static final int ARRAY = 4;
  private static final int UNSLOTTED = 2;

  private record Step(int thread, char op, int target, int field) {
  }

  /** A node of an instrumented class: its shadow lives in this slot (as ShadowSlot adds it). */
  static final class Node {
    @SuppressWarnings("unused")
    private transient Object $racetriage$shadow;
  }

  /**
   * A node of a trusted JDK class with plain pointer fields: the slot and the releaser field, which names the one
   * thread that ever released on it (as ShadowSlot adds them to a skip list's nodes).
   */
  static final class LinkedNode {
    @SuppressWarnings("unused")
    private transient Object $racetriage$shadow;
    @SuppressWarnings("unused")
    private transient volatile Object $racetriage$releaser;
  }

  @AfterEach
  void uninstall() {
    Hooks.install(null);
  }

  @Test
  void theCoverCheckSettlesOnlyPointerReadsWhoseAcquireWouldChangeNothing() throws Exception {
    Random random = new Random(0x7A0575L);
    int settled = 0;
    int settledAfterAnother = 0;
    int settledWithReleaser = 0;
    int atomicReads = 0;
    int volatileReads = 0;
    int settledArrays = 0;
    int slottedReads = 0;
    int racyTraces = 0;
    int orderedHandOffs = 0;
    for (int n = 0; n < TRACES; n++) {
      List<Step> trace = randomTrace(random);
      boolean[] covered = new boolean[trace.size()];
      Set<String> reported = run(trace, covered);
      Oracle oracle = oracle(trace);
      assertEquals(oracle.racy, reported, "trace " + n + ": " + trace);
      for (int i = 0; i < trace.size(); i++) {
        Step s = trace.get(i);
        if (s.op() != 't' && s.op() != 'A' && s.op() != 'V') {
          continue;
        }
        atomicReads += s.op() == 'A' && covered[i] ? 1 : 0;
        volatileReads += s.op() == 'V' && covered[i] ? 1 : 0;
        if (s.target() == UNSLOTTED || s.target() == ARRAY && s.op() == 't') {
          assertEquals(false, covered[i], "trace " + n + ", step " + i + ": a holder without a slot: " + trace);
          continue;
        }
        if (s.target() == ARRAY) {
          settledArrays += covered[i] ? 1 : 0;
        }
        slottedReads++;
        if (covered[i]) {
          assertTrue(oracle.acquireChangesNothing[i],
              "trace " + n + ", step " + i + " settled, but the holder's clock is not covered: " + trace);
          settled++;
          settledAfterAnother += oracle.lastReleasedByAnother[i] ? 1 : 0;
          settledWithReleaser += s.target() == 1 || s.target() == 3 ? 1 : 0;
        }
      }
      orderedHandOffs += oracle.orderedHandOffs;
      racyTraces += oracle.racy.isEmpty() ? 0 : 1;
    }
    // both sides occur: reads the check settles (a walk over nodes the reader linked or already acquired), reads it
    // leaves to the acquire, data handed over through a holder without a race, and races
    assertTrue(settled > slottedReads / 5 && settled < slottedReads, settled + " of " + slottedReads + " settled");
    assertTrue(settledAfterAnother >= 10, settledAfterAnother + " settled reads of a holder another thread released");
    assertTrue(settledWithReleaser >= settled / 4 && settledWithReleaser < settled,
        settledWithReleaser + " of " + settled + " settled reads of holders with a releaser field");
    assertTrue(atomicReads >= 50, atomicReads + " settled atomic reads");
    assertTrue(volatileReads >= 30, volatileReads + " settled volatile field reads");
    assertTrue(settledArrays >= 10, settledArrays + " settled atomic reads of the array");
    assertTrue(orderedHandOffs >= 50, orderedHandOffs + " accesses ordered after another thread's write");
    assertTrue(racyTraces > TRACES / 10 && racyTraces < TRACES * 9 / 10, racyTraces + " racy traces");
  }

  private static List<Step> randomTrace(Random random) {
    List<Step> trace = new ArrayList<>();
    for (int i = 0; i < STEPS; i++) {
      int kind = random.nextInt(12);
      int object = random.nextInt(OBJECTS);
      // a data object's accesses mostly by its home thread, sometimes by another (after a hand-off, or racing)
      int thread = kind < 6 && random.nextInt(6) != 0 ? object % THREADS : random.nextInt(THREADS);
      if (kind < 3) {
        trace.add(new Step(thread, 'w', object, random.nextInt(FIELDS)));
      } else if (kind < 6) {
        trace.add(new Step(thread, 'r', object, random.nextInt(FIELDS)));
      } else if (kind < 8) {
        trace.add(new Step(thread, 'c', random.nextInt(HOLDERS), 0)); // compare-and-set: acquire and release
      } else if (kind < 9) {
        // a release store (setRelease, lazySet), or now and then a write of a volatile field of the holder's own
        // (its own clock, which an atomic read acquires too but a pointer read does not)
        trace.add(new Step(thread, random.nextInt(4) == 0 ? 'v' : 's', random.nextInt(HOLDERS), 0));
      } else if (kind < 11) {
        trace.add(new Step(thread, 't', random.nextInt(HOLDERS), 0)); // a pointer read out of the holder
      } else {
        // an atomic read (a volatile get) of it, or a read of its volatile field (Hooks.volatileRead): both acquire
        // the field's clock and the atomic clock
        trace.add(new Step(thread, random.nextBoolean() ? 'A' : 'V', random.nextInt(HOLDERS), 0));
      }
    }
    return trace;
  }

  private static final class Oracle {
    final Set<String> racy = new TreeSet<>();
    boolean[] acquireChangesNothing;
    boolean[] lastReleasedByAnother;
    int orderedHandOffs;
  }

  /** The h-summary on vector clocks; pointer reads acquire the holder's clock, compare-and-sets acquire and release. */
  private static Oracle oracle(List<Step> trace) {
    Oracle o = new Oracle();
    o.acquireChangesNothing = new boolean[trace.size()];
    o.lastReleasedByAnother = new boolean[trace.size()];
    int[][] clocks = new int[THREADS][THREADS];
    for (int t = 0; t < THREADS; t++) {
      clocks[t][t] = 1;
    }
    int[][] holders = new int[HOLDERS][THREADS];
    int[][] volatiles = new int[HOLDERS][THREADS];
    int[] lastReleaser = new int[HOLDERS];
    Arrays.fill(lastReleaser, -1);
    int[][] lastWriteThread = new int[OBJECTS][FIELDS];
    int[][] lastWriteClock = new int[OBJECTS][FIELDS];
    for (int[] row : lastWriteThread) {
      Arrays.fill(row, -1);
    }
    for (int i = 0; i < trace.size(); i++) {
      Step s = trace.get(i);
      int[] c = clocks[s.thread()];
      switch (s.op()) {
        case 't', 'A', 'V' -> {
          boolean covered = true;
          for (int u = 0; u < THREADS; u++) {
            covered &= holders[s.target()][u] <= c[u] && (s.op() == 't' || volatiles[s.target()][u] <= c[u]);
          }
          o.acquireChangesNothing[i] = covered;
          o.lastReleasedByAnother[i] = lastReleaser[s.target()] >= 0 && lastReleaser[s.target()] != s.thread();
          join(c, holders[s.target()]);
          if (s.op() != 't') {
            join(c, volatiles[s.target()]);
          }
        }
        case 'v' -> {
          join(volatiles[s.target()], c);
          c[s.thread()]++;
        }
        case 'c', 's' -> {
          if (s.op() == 'c') {
            join(c, holders[s.target()]);
            join(c, volatiles[s.target()]); // its acquire after the operation (Hooks.atomicAfter) takes both
          }
          join(holders[s.target()], c);
          c[s.thread()]++;
          lastReleaser[s.target()] = s.thread();
        }
        default -> {
          int w = lastWriteThread[s.target()][s.field()];
          if (w >= 0 && lastWriteClock[s.target()][s.field()] > c[w]) {
            o.racy.add(key(s.target(), s.field()));
          } else if (w >= 0 && w != s.thread()) {
            o.orderedHandOffs++; // another thread's write, ordered before this access (holders are the only edges)
          }
          if (s.op() == 'w') {
            lastWriteThread[s.target()][s.field()] = s.thread();
            lastWriteClock[s.target()][s.field()] = c[s.thread()];
          }
        }
      }
    }
    return o;
  }

  private static void join(int[] into, int[] from) {
    for (int u = 0; u < THREADS; u++) {
      into[u] = Math.max(into[u], from[u]);
    }
  }

  private static String key(int object, int field) {
    return "pkg.O" + object + ".f" + field;
  }

  /**
   * Runs the trace through the hooks, each step on its thread, one at a time; each pointer read first asks the cover
   * check and records its answer in {@code covered}, then calls the hook as instrumented code does.
   */
  private static Set<String> run(List<Step> trace, boolean[] covered) throws InterruptedException {
    FieldRegistry fields = new FieldRegistry();
    SiteTable siteTable = new SiteTable();
    int site = siteTable.register("pkg.Sites", "step", "Sites.java", 1);
    DetectRuntime runtime = new DetectRuntime(siteTable, fields, new RunSummary(), 0);
    Hooks.install(runtime);
    Object[] objects = new Object[OBJECTS];
    int[][] ids = new int[OBJECTS][FIELDS];
    for (int o = 0; o < OBJECTS; o++) {
      objects[o] = new Object();
      for (int f = 0; f < FIELDS; f++) {
        ids[o][f] = fields.id("pkg/O" + o, "f" + f);
      }
    }
    int volatileField = fields.id("pkg/Holder", "state");
    Object[] holders = new Object[HOLDERS];
    for (int h = 0; h < HOLDERS; h++) {
      holders[h] = h == UNSLOTTED ? new Object() : h == ARRAY ? new Object[1] : h == 0 ? new Node() : new LinkedNode();
    }
    int both = Hooks.SYNC_ACQUIRE | Hooks.SYNC_RELEASE;
    TakingTurns.run(THREADS, trace.size(), i -> trace.get(i).thread(), i -> {
      Step s = trace.get(i);
      switch (s.op()) {
        case 'w' -> Hooks.writeField(objects[s.target()], ids[s.target()][s.field()], site, null);
        case 'r' -> Hooks.readField(objects[s.target()], ids[s.target()][s.field()], site, null);
        case 'c' -> {
          Hooks.atomicBefore(null, holders[s.target()], both);
          Hooks.atomicAfter(null, holders[s.target()], both);
        }
        case 's' -> {
          Hooks.atomicBefore(null, holders[s.target()], Hooks.SYNC_RELEASE);
          Hooks.atomicAfter(null, holders[s.target()], Hooks.SYNC_RELEASE);
        }
        case 'v' -> Hooks.volatileWrite(holders[s.target()], volatileField);
        case 'V' -> {
          covered[i] = runtime.coveredVolatileRead(ThreadShadow.current(), holders[s.target()], volatileField);
          Hooks.volatileRead(holders[s.target()], volatileField);
        }
        case 'A' -> {
          covered[i] = runtime.coveredAtomicAcquire(ThreadShadow.current(), holders[s.target()]);
          Hooks.atomicAfter(null, holders[s.target()], Hooks.SYNC_ACQUIRE);
        }
        default -> {
          covered[i] = runtime.coveredTrustedRead(ThreadShadow.current(), holders[s.target()]);
          Hooks.trustedReferenceRead(holders[s.target()], null);
        }
      }
    });
    Set<String> racy = new TreeSet<>();
    for (FieldRaces f : runtime.aggregator().fields()) {
      racy.add(f.fieldKey());
    }
    return racy;
  }
}
