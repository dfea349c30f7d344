package dev.racetriage.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * The runtime's shortcuts for objects against a vector-clock oracle, on random traces run by real threads through
 * the hooks: the write summary (a read covering it checks nothing), the compact owner records (one thread's writes in
 * one epoch kept as field ids and sites, turned into states when an access needs more) and the field states. Three
 * threads, forked before the trace, take turns on steps drawn at random — writes and reads of three fields of three
 * objects, and releases and acquires of two locks (hand-offs, publication through a lock, an owner writing across
 * epochs, objects that become shared) — and the fields the runtime reports racy must be exactly those the oracle's
 * h-summary reports: a read or write whose location's last write is not ordered before it.
 */
class ObjectShadowPropertyTest {
  private static final int TRACES = 300;
  private static final int STEPS = 30;
  private static final int THREADS = 3;
  private static final int OBJECTS = 3;
  private static final int FIELDS = 3;
  private static final int LOCKS = 2;

  private record Step(int thread, char op, int target, int field) {
  }

  /** An object of an instrumented class: the shadow lives in this slot (as ShadowSlot adds it), not in the table. */
  static final class Slotted {
    @SuppressWarnings("unused")
    private transient Object $racetriage$shadow;
  }

  private static final java.lang.invoke.VarHandle SLOT;

  static {
    try {
      SLOT = java.lang.invoke.MethodHandles.privateLookupIn(Slotted.class, java.lang.invoke.MethodHandles.lookup())
          .findVarHandle(Slotted.class, "$racetriage$shadow", Object.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The object's slot, as the instrumented class's own {@code getfield} reads it (null: no slot). */
  private static Object slotOf(Object object) {
    return object instanceof Slotted ? SLOT.get(object) : null;
  }

  @AfterEach
  void uninstall() {
    Hooks.install(null);
  }

  @Test
  void reportedFieldsAreExactlyTheOraclesOnRandomTraces() throws Exception {
    Random random = new Random(0x5AD0L);
    int racyTraces = 0;
    for (int n = 0; n < TRACES; n++) {
      List<Step> trace = randomTrace(random);
      Set<String> expected = oracle(trace);
      Set<String> reported = run(trace, Object::new, null);
      assertEquals(expected, reported, "trace " + n + ": " + trace);
      racyTraces += expected.isEmpty() ? 0 : 1;
    }
    // the traces exercise both sides: some race, some do not
    assertEquals(true, racyTraces > TRACES / 10 && racyTraces < TRACES * 9 / 10, racyTraces + " racy traces");
  }

  /**
   * The read hook's cover check ({@code DetectRuntime.coveredRead}: the object's slot holds this run's shadow
   * and the reader covers its write summary — one of its own epochs, or ordered before its clock), on the same kind of
   * random traces with objects that have a slot: wherever it settles a read, the oracle says every write to that
   * object — all its fields — happens before the read; it settles a good share of the reads, both an owner's reads of
   * what it wrote and reads of objects another thread wrote and handed over through a lock, and never one after an
   * unordered write, even one the summary's owner later wrote over (publication through a race); and the reports stay
   * exactly the oracle's.
   */
  @Test
  void theCoverCheckSettlesOnlyReadsThatCoverEveryWriteToTheObject() throws Exception {
    Random random = new Random(0x0B1DL);
    int settled = 0;
    int settledForeign = 0;
    int reads = 0;
    int racyTraces = 0;
    for (int n = 0; n < TRACES; n++) {
      List<Step> trace = randomTrace(random);
      boolean[] coveredRead = new boolean[trace.size()];
      Set<String> reported = run(trace, Slotted::new, coveredRead);
      assertEquals(oracle(trace), reported, "trace " + n + ": " + trace);
      boolean[] covering = coveringReads(trace);
      for (int i = 0; i < trace.size(); i++) {
        if (coveredRead[i]) {
          assertEquals(true, covering[i], "trace " + n + ", step " + i + " settled by the cover check: " + trace);
          settled++;
          settledForeign += lastWrittenByAnother(trace, i) ? 1 : 0;
        }
        reads += trace.get(i).op() == 'r' ? 1 : 0;
      }
      racyTraces += reported.isEmpty() ? 0 : 1;
    }
    assertEquals(true, settled > reads / 5, settled + " of " + reads + " reads settled by the cover check");
    assertEquals(true, settledForeign >= 10, settledForeign + " settled reads of an object another thread wrote last");
    assertEquals(true, racyTraces > TRACES / 10, racyTraces + " racy traces");
  }

  /**
   * The write hook's rewrite check ({@code DetectRuntime.recordedWrite}: the object's slot holds this run's shadow,
   * its summary is the writer's current epoch — or shared, once the records are states — and the field's record or
   * state already holds that epoch; a different site is stored into the compact record), on random traces whose
   * writes come from two sites, with objects that have a slot (a fresh object's first write installs its shadow with
   * the write in it): every write it settles is, on vector clocks, the writer's second write of that field in the
   * same epoch with no other thread's write to it since; it settles a good share of the writes, some from another site
   * than the field's last one, and some once the records are states; and the reports — fields, kinds and each race's
   * two sites — stay exactly the oracle's.
   */
  @Test
  void theRewriteCheckSettlesOnlyWritesOfAFieldAlreadyWrittenInTheSameEpoch() throws Exception {
    Random random = new Random(0x3B17EL);
    int settled = 0;
    int settledOtherSite = 0;
    int writes = 0;
    int racyTraces = 0;
    for (int n = 0; n < TRACES; n++) {
      List<Step> trace = randomTrace(random);
      boolean[] recordedWrite = new boolean[trace.size()];
      Set<String> expected = oracleWithSites(trace);
      Set<String> reported = runWithSites(trace, Slotted::new, recordedWrite, null, null);
      assertEquals(expected, reported, "trace " + n + ": " + trace);
      boolean[] rewrites = rewritesInEpoch(trace);
      for (int i = 0; i < trace.size(); i++) {
        if (recordedWrite[i]) {
          assertEquals(true, rewrites[i], "trace " + n + ", step " + i + " settled by the rewrite check: " + trace);
          settled++;
          settledOtherSite += lastSiteOf(trace, i) != writeSite(i) ? 1 : 0;
        }
        writes += trace.get(i).op() == 'w' ? 1 : 0;
      }
      racyTraces += expected.isEmpty() ? 0 : 1;
    }
    assertEquals(true, settled > writes / 10, settled + " of " + writes + " writes settled by the rewrite check");
    assertEquals(true, settledOtherSite >= 10, settledOtherSite + " settled writes from another site than the last");
    assertEquals(true, racyTraces > TRACES / 10, racyTraces + " racy traces");
  }

  /**
   * The owned-read guard the instrumenter puts before a field read's hook ({@code Hooks.ownedShadow} of the object's
   * slot, read as the instrumented class reads its own slot field: the shadow names the reader as the thread that made every write recorded for it), on the same random traces with
   * objects that have a slot, each read the guard settles skipped as instrumented code skips it: wherever the guard
   * settles a read, the oracle says every write so far to that object — all its fields — happens before the read
   * (the reader's own writes, and writes of others it took the object over from through a lock: the write summary's
   * takeover); it settles a good share of the reads, and among them reads of objects whose earlier writes were not
   * all the reader's; and the reports — fields, kinds and sites — stay exactly the oracle's.
   */
  @Test
  void theOwnedReadGuardSettlesOnlyReadsOrderedAfterEveryWriteToTheObject() throws Exception {
    Random random = new Random(0x0E1EDL);
    int settled = 0;
    int reads = 0;
    int settledAfterAnother = 0;
    int racyTraces = 0;
    for (int n = 0; n < TRACES; n++) {
      List<Step> trace = randomTrace(random);
      boolean[] ownedRead = new boolean[trace.size()];
      Set<String> expected = oracleWithSites(trace);
      Set<String> reported = runWithSites(trace, Slotted::new, null, ownedRead, null);
      assertEquals(expected, reported, "trace " + n + ": " + trace);
      boolean[] covering = coveringReads(trace);
      boolean[] own = readsOfOwnWrites(trace);
      for (int i = 0; i < trace.size(); i++) {
        if (trace.get(i).op() != 'r') {
          continue;
        }
        reads++;
        if (ownedRead[i]) {
          assertEquals(true, covering[i], "trace " + n + ", step " + i + " settled by the owned-read guard: " + trace);
          settled++;
          settledAfterAnother += own[i] ? 0 : 1;
        }
      }
      racyTraces += expected.isEmpty() ? 0 : 1;
    }
    assertEquals(true, settled > reads / 5, settled + " of " + reads + " reads settled by the owned-read guard");
    assertEquals(true, settledAfterAnother >= 3, settledAfterAnother + " settled reads of objects taken over");
    assertEquals(true, racyTraces > TRACES / 10, racyTraces + " racy traces");
  }

  /**
   * The owned-write guard the instrumenter puts before a guarded site's write hook ({@code Hooks.ownedRewrite} of the
   * object's slot, the thread slot and the site's bit; on a miss {@code Hooks.writeFieldGuarded}, which stamps the
   * site), on random traces whose writes come from two sites, each site of each field a bit of its own, some writes
   * through the unguarded hook instead (which drops every bit when it changes a record's site), with objects that have
   * a slot: every write the guard settles is, on vector clocks, the writer's write of the field in the same epoch as
   * the field's last write, from the same site, with no other thread's write since; it settles a good share of the
   * writes; and the reports — fields, kinds and each race's two sites — stay exactly the oracle's.
   */
  @Test
  void theOwnedWriteGuardSettlesOnlyRewritesFromTheSameSiteInTheSameEpoch() throws Exception {
    Random random = new Random(0x57A3DL);
    int settled = 0;
    int eligible = 0; // guarded writes of a field whose last write was the same thread's, site and epoch
    int writes = 0;
    int racyTraces = 0;
    for (int n = 0; n < TRACES; n++) {
      List<Step> trace = randomTrace(random);
      boolean[] ownedWrite = new boolean[trace.size()];
      Set<String> expected = oracleWithSites(trace);
      Set<String> reported = runWithSites(trace, Slotted::new, null, null, ownedWrite);
      assertEquals(expected, reported, "trace " + n + ": " + trace);
      boolean[] rewrites = rewritesInEpoch(trace);
      for (int i = 0; i < trace.size(); i++) {
        boolean sameSiteRewrite = rewrites[i] && lastSiteOf(trace, i) == writeSite(i);
        if (ownedWrite[i]) {
          assertEquals(true, sameSiteRewrite,
              "trace " + n + ", step " + i + " settled by the owned-write guard: " + trace);
          settled++;
        }
        eligible += sameSiteRewrite && i % 4 != 3 ? 1 : 0;
        writes += trace.get(i).op() == 'w' ? 1 : 0;
      }
      racyTraces += expected.isEmpty() ? 0 : 1;
    }
    // a miss: the field's last write went through the unguarded hook (no bit), or another field's site change there
    assertEquals(true, settled * 2 > eligible && settled > writes / 40,
        settled + " of " + eligible + " eligible writes (" + writes + " in all) settled by the owned-write guard");
    assertEquals(true, racyTraces > TRACES / 10, racyTraces + " racy traces");
  }

  /** Per read step: every write so far to any field of its object was made by the reading thread (none counts). */
  private static boolean[] readsOfOwnWrites(List<Step> trace) {
    boolean[] own = new boolean[trace.size()];
    int[] writer = new int[OBJECTS]; // -1: none yet, -2: two threads
    Arrays.fill(writer, -1);
    for (int i = 0; i < trace.size(); i++) {
      Step s = trace.get(i);
      if (s.op() == 'w') {
        int w = writer[s.target()];
        writer[s.target()] = w == -1 || w == s.thread() ? s.thread() : -2;
      } else if (s.op() == 'r') {
        own[i] = writer[s.target()] == -1 || writer[s.target()] == s.thread();
      }
    }
    return own;
  }

  /** The site of write step i: one of two, by the step's position (a field rewritten from either). */
  private static int writeSite(int i) {
    return (i * 7 + i / 3) % 3 == 0 ? WRITE_SITE_B : WRITE_SITE_A;
  }

  private static final int WRITE_SITE_A = 0;
  private static final int WRITE_SITE_B = 1;
  private static final int READ_SITE = 2;

  /** The site of the last write of step i's field before step i, or -1. */
  private static int lastSiteOf(List<Step> trace, int i) {
    Step w = trace.get(i);
    for (int j = i - 1; j >= 0; j--) {
      Step s = trace.get(j);
      if (s.op() == 'w' && s.target() == w.target() && s.field() == w.field()) {
        return writeSite(j);
      }
    }
    return -1;
  }

  /**
   * Per write step: the field's last write was the same thread's in its current epoch (no release since) — a
   * write the rewrite check may settle.
   */
  private static boolean[] rewritesInEpoch(List<Step> trace) {
    int[][] clocks = initialClocks();
    int[][] locks = new int[LOCKS][THREADS];
    int[][] lastThread = new int[OBJECTS][FIELDS];
    int[][] lastClock = new int[OBJECTS][FIELDS];
    for (int[] row : lastThread) {
      Arrays.fill(row, -1);
    }
    boolean[] rewrites = new boolean[trace.size()];
    for (int i = 0; i < trace.size(); i++) {
      Step s = trace.get(i);
      int[] c = clocks[s.thread()];
      switch (s.op()) {
        case 'a' -> acquire(c, locks[s.target()]);
        case 'l' -> release(c, locks[s.target()], s.thread());
        case 'w' -> {
          rewrites[i] = lastThread[s.target()][s.field()] == s.thread()
              && lastClock[s.target()][s.field()] == c[s.thread()];
          lastThread[s.target()][s.field()] = s.thread();
          lastClock[s.target()][s.field()] = c[s.thread()];
        }
        default -> {
        }
      }
    }
    return rewrites;
  }

  /**
   * The h-summary on vector clocks with sites: each race as "field kind site after earlier site", the sites those of
   * the access and of the location's last write.
   */
  private static Set<String> oracleWithSites(List<Step> trace) {
    int[][] clocks = initialClocks();
    int[][] locks = new int[LOCKS][THREADS];
    int[][] lastThread = new int[OBJECTS][FIELDS];
    int[][] lastClock = new int[OBJECTS][FIELDS];
    int[][] lastSite = new int[OBJECTS][FIELDS];
    for (int[] row : lastThread) {
      Arrays.fill(row, -1);
    }
    Set<String> racy = new TreeSet<>();
    for (int i = 0; i < trace.size(); i++) {
      Step s = trace.get(i);
      int[] c = clocks[s.thread()];
      switch (s.op()) {
        case 'a' -> acquire(c, locks[s.target()]);
        case 'l' -> release(c, locks[s.target()], s.thread());
        default -> {
          int w = lastThread[s.target()][s.field()];
          int site = s.op() == 'w' ? writeSite(i) : READ_SITE;
          if (w >= 0 && lastClock[s.target()][s.field()] > c[w]) {
            racy.add(key(s.target(), s.field()) + " " + (s.op() == 'w' ? "WW" : "WR") + " " + site + " after "
                + lastSite[s.target()][s.field()]);
          }
          if (s.op() == 'w') {
            lastThread[s.target()][s.field()] = s.thread();
            lastClock[s.target()][s.field()] = c[s.thread()];
            lastSite[s.target()][s.field()] = site;
          }
        }
      }
    }
    return racy;
  }

  /**
   * True if step i's object was last written (any field) by a thread other than step i's: the summary is then that
   * thread's epoch, so only the clock branch of the check can settle the read.
   */
  private static boolean lastWrittenByAnother(List<Step> trace, int i) {
    Step read = trace.get(i);
    for (int j = i - 1; j >= 0; j--) {
      Step s = trace.get(j);
      if (s.op() == 'w' && s.target() == read.target()) {
        return s.thread() != read.thread();
      }
    }
    return false;
  }

  private static List<Step> randomTrace(Random random) {
    List<Step> trace = new ArrayList<>();
    for (int i = 0; i < STEPS; i++) {
      int kind = random.nextInt(10);
      int object = random.nextInt(OBJECTS);
      // mostly the object's home thread (an owner writing and reading its own objects), sometimes another
      int thread = kind < 6 && random.nextInt(8) != 0 ? object % THREADS : random.nextInt(THREADS);
      if (kind < 3) {
        trace.add(new Step(thread, 'w', object, random.nextInt(FIELDS)));
      } else if (kind < 6) {
        trace.add(new Step(thread, 'r', object, random.nextInt(FIELDS)));
      } else if (kind < 8) {
        trace.add(new Step(thread, 'a', random.nextInt(LOCKS), 0));
      } else {
        trace.add(new Step(thread, 'l', random.nextInt(LOCKS), 0));
      }
    }
    return trace;
  }

  /** Per step: a read after which, on vector clocks, every write so far to any field of its object is ordered. */
  private static boolean[] coveringReads(List<Step> trace) {
    int[][] clocks = initialClocks();
    int[][] locks = new int[LOCKS][THREADS];
    List<List<int[]>> writes = new ArrayList<>(); // per object: (thread, clock) of every write
    for (int o = 0; o < OBJECTS; o++) {
      writes.add(new ArrayList<>());
    }
    boolean[] covering = new boolean[trace.size()];
    for (int i = 0; i < trace.size(); i++) {
      Step s = trace.get(i);
      int[] c = clocks[s.thread()];
      switch (s.op()) {
        case 'a' -> acquire(c, locks[s.target()]);
        case 'l' -> release(c, locks[s.target()], s.thread());
        case 'w' -> writes.get(s.target()).add(new int[] {s.thread(), c[s.thread()]});
        default -> {
          boolean all = true;
          for (int[] w : writes.get(s.target())) {
            all &= w[1] <= c[w[0]];
          }
          covering[i] = all;
        }
      }
    }
    return covering;
  }

  private static int[][] initialClocks() {
    int[][] clocks = new int[THREADS][THREADS];
    for (int t = 0; t < THREADS; t++) {
      clocks[t][t] = 1;
    }
    return clocks;
  }

  private static void acquire(int[] clock, int[] lock) {
    for (int u = 0; u < THREADS; u++) {
      clock[u] = Math.max(clock[u], lock[u]);
    }
  }

  private static void release(int[] clock, int[] lock, int thread) {
    for (int u = 0; u < THREADS; u++) {
      lock[u] = Math.max(lock[u], clock[u]);
    }
    clock[thread]++;
  }

  /**
   * The shapes of a reader that finds a fresh object and the owner that writes it again (RacyProgramsIT's skip-list
   * fixture, by hand): the reader's first read ordered after the owner's first write through a lock (covered by the
   * write summary: nothing is recorded) or racy (uncovered: the compact records become states), then the owner's second
   * write in a later epoch, then the reader's second read. h-summary tracks no RW pair (a read followed by an
   * unordered write is not a race until a read sees that write, JRF Theorem 2), so what must never be lost is the WR of
   * the second read — in every placement of the owner's releases — and the first read must never be reported when the
   * lock ordered it.
   */
  @Test
  void aReaderOfAFreshObjectThenTheOwnersSecondWrite() throws Exception {
    List<List<Step>> shapes = List.of(
        // published through lock 0, read (covered), written again after a release, read again: WR on the second read
        List.of(new Step(0, 'w', 0, 0), new Step(0, 'a', 0, 0), new Step(0, 'l', 0, 0), new Step(1, 'a', 0, 0),
            new Step(1, 'r', 0, 0), new Step(1, 'l', 0, 0), new Step(0, 'w', 0, 0), new Step(1, 'r', 0, 0)),
        // the same, the owner's second write in the same epoch as its first (no release between them)
        List.of(new Step(0, 'w', 0, 0), new Step(0, 'w', 0, 1), new Step(1, 'r', 0, 0), new Step(0, 'w', 0, 0),
            new Step(1, 'r', 0, 0)),
        // racy publication: the first read already races (WR), the second write and read stay reported
        List.of(new Step(0, 'w', 0, 0), new Step(0, 'l', 1, 0), new Step(1, 'r', 0, 0), new Step(0, 'w', 0, 0),
            new Step(0, 'l', 1, 0), new Step(1, 'r', 0, 0)),
        // ordered first read, owner's second write, no further read: nothing to report (RW is not tracked)
        List.of(new Step(0, 'w', 0, 0), new Step(0, 'l', 0, 0), new Step(1, 'a', 0, 0), new Step(1, 'r', 0, 0),
            new Step(0, 'w', 0, 0)),
        // ordered first read, then the reader's own write races with the owner's second write (WW)
        List.of(new Step(0, 'w', 0, 0), new Step(0, 'l', 0, 0), new Step(1, 'a', 0, 0), new Step(1, 'r', 0, 0),
            new Step(0, 'w', 0, 0), new Step(1, 'w', 0, 0)),
        // the second read by a third thread that acquired the first publication only
        List.of(new Step(0, 'w', 0, 0), new Step(0, 'l', 0, 0), new Step(2, 'a', 0, 0), new Step(2, 'r', 0, 0),
            new Step(0, 'w', 0, 0), new Step(0, 'l', 1, 0), new Step(2, 'r', 0, 0)));
    for (int n = 0; n < shapes.size(); n++) {
      List<Step> trace = shapes.get(n);
      assertEquals(oracle(trace), run(trace, Object::new, null), "shape " + n + ": " + trace);
      assertEquals(oracle(trace), run(trace, Slotted::new, null), "shape " + n + " (slotted): " + trace);
    }
    assertEquals(Set.of(key(0, 0)), oracle(shapes.get(0)));
    assertEquals(Set.of(), oracle(shapes.get(3)));
  }

  private static String key(int object, int field) {
    return "pkg.O" + object + ".f" + field;
  }

  /** The h-summary on vector clocks: a race when the location's last write is not ordered before the access. */
  private static Set<String> oracle(List<Step> trace) {
    int[][] clocks = initialClocks();
    int[][] locks = new int[LOCKS][THREADS];
    int[][] lastWriteThread = new int[OBJECTS][FIELDS];
    int[][] lastWriteClock = new int[OBJECTS][FIELDS];
    for (int[] row : lastWriteThread) {
      Arrays.fill(row, -1);
    }
    Set<String> racy = new TreeSet<>();
    for (Step s : trace) {
      int[] c = clocks[s.thread()];
      switch (s.op()) {
        case 'a' -> acquire(c, locks[s.target()]);
        case 'l' -> release(c, locks[s.target()], s.thread());
        default -> {
          int w = lastWriteThread[s.target()][s.field()];
          if (w >= 0 && lastWriteClock[s.target()][s.field()] > c[w]) {
            racy.add(key(s.target(), s.field()));
          }
          if (s.op() == 'w') {
            lastWriteThread[s.target()][s.field()] = s.thread();
            lastWriteClock[s.target()][s.field()] = c[s.thread()];
          }
        }
      }
    }
    return racy;
  }

  /**
   * Runs the trace through the hooks, each step on its thread, one step at a time, on objects from {@code newObject};
   * if {@code coveredRead} is given, each read step first asks the read hook's cover check and records its answer there.
   */
  private static Set<String> run(List<Step> trace, java.util.function.Supplier<Object> newObject, boolean[] coveredRead)
      throws InterruptedException {
    Set<String> racy = new TreeSet<>();
    for (FieldRaces f : runTrace(trace, newObject, coveredRead, null, null, null, false)) {
      racy.add(f.fieldKey());
    }
    return racy;
  }

  /**
   * As {@link #run}, writes from two sites ({@link #writeSite}); each race as the oracle's "field kind site after
   * earlier site" (site: its line). If {@code recordedWrite} is given, each write step first asks the write hook's
   * rewrite check and records its answer there; if {@code ownedRead} is given, each read step first asks the owned-read
   * guard, skips the hook if it says so (as instrumented code does) and records that there; {@code ownedWrite} does
   * the same for the owned-write guard at each write step (see {@code runTrace}).
   */
  private static Set<String> runWithSites(List<Step> trace, java.util.function.Supplier<Object> newObject,
                                          boolean[] recordedWrite, boolean[] ownedRead, boolean[] ownedWrite)
      throws InterruptedException {
    Set<String> racy = new TreeSet<>();
    for (FieldRaces f : runTrace(trace, newObject, null, recordedWrite, ownedRead, ownedWrite, true)) {
      for (FieldRaces.SitePair p : f.sitePairs()) {
        racy.add(f.fieldKey() + " " + p.kind() + " " + p.current().line() + " after " + p.previous().line());
      }
    }
    return racy;
  }

  private static List<FieldRaces> runTrace(List<Step> trace, java.util.function.Supplier<Object> newObject,
                                           boolean[] coveredRead, boolean[] recordedWrite, boolean[] ownedRead,
                                           boolean[] ownedWrite, boolean twoSites)
      throws InterruptedException {
    FieldRegistry fields = new FieldRegistry();
    SiteTable siteTable = new SiteTable();
    int[] siteIds = new int[3];
    for (int k = 0; k < siteIds.length; k++) {
      siteIds[k] = siteTable.register("pkg.Sites", "step", "Sites.java", k);
    }
    DetectRuntime runtime = new DetectRuntime(siteTable, fields, new RunSummary(), 0);
    Hooks.install(runtime);
    Object[] objects = new Object[OBJECTS];
    int[][] ids = new int[OBJECTS][FIELDS];
    for (int o = 0; o < OBJECTS; o++) {
      objects[o] = newObject.get();
      for (int f = 0; f < FIELDS; f++) {
        ids[o][f] = fields.id("pkg/O" + o, "f" + f);
      }
    }
    Object[] locks = new Object[LOCKS];
    for (int l = 0; l < LOCKS; l++) {
      locks[l] = new Object();
    }
    TakingTurns.run(THREADS, trace.size(), i -> trace.get(i).thread(), i -> {
      Step s = trace.get(i);
      switch (s.op()) {
        case 'w' -> {
          int site = twoSites ? siteIds[writeSite(i)] : 1;
          if (recordedWrite != null) {
            recordedWrite[i] = runtime.recordedWrite(ThreadShadow.current(), objects[s.target()],
                ids[s.target()][s.field()], site);
          }
          if (ownedWrite != null && i % 4 != 3) { // a guarded site: its bit, and its field's two sites' mask
            long bit = 1L << (2 * s.field() + writeSite(i));
            long mask = 3L << (2 * s.field());
            ThreadShadow slot = i % 3 == 0 ? null : ThreadShadow.current(); // the method's thread slot
            if (Hooks.ownedRewrite(slotOf(objects[s.target()]), slot, bit) != null) {
              ownedWrite[i] = true; // skipped, as the instrumented code skips the hook
            } else {
              Hooks.writeFieldGuarded(objects[s.target()], ids[s.target()][s.field()], site, bit, mask, slot);
            }
            return;
          }
          Hooks.writeField(objects[s.target()], ids[s.target()][s.field()], site, null);
        }
        case 'r' -> {
          if (coveredRead != null) {
            coveredRead[i] = runtime.coveredRead(ThreadShadow.current(), objects[s.target()],
                ids[s.target()][s.field()]);
          }
          if (ownedRead != null && Hooks.ownedShadow(slotOf(objects[s.target()]))) {
            ownedRead[i] = true; // skipped, as the instrumented code skips the hook
          } else {
            Hooks.readField(objects[s.target()], ids[s.target()][s.field()], twoSites ? siteIds[READ_SITE] : 2);
          }
        }
        case 'a' -> Hooks.monitorEnter(locks[s.target()]);
        default -> Hooks.monitorExit(locks[s.target()]);
      }
    });
    return runtime.aggregator().fields();
  }
}
