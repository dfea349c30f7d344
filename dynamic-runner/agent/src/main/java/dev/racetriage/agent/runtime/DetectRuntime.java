package dev.racetriage.agent.runtime;

import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;

import dev.racetriage.agent.detect.HSummaryDetector;
import dev.racetriage.agent.detect.LocationState;
import dev.racetriage.agent.detect.RaceAggregator;
import dev.racetriage.agent.detect.RunSummary;
import dev.racetriage.agent.detect.SiteTable;
import dev.racetriage.agent.detect.StackCapture;
import dev.racetriage.agent.hb.Epoch;
import dev.racetriage.agent.hb.HappensBefore;
import dev.racetriage.agent.hb.SyncClock;
import dev.racetriage.agent.hb.ThreadState;
import dev.racetriage.agent.hb.VectorClock;

/**
 * Detect mode: turns hook events into happens-before updates ({@link HappensBefore}) and h-summary checks
 * ({@link HSummaryDetector}), keeping the shadow memory those need. Every method runs on the program thread that
 * produced the event, with that thread's {@link ThreadShadow} marked busy by {@link Hooks}.
 *
 * <p>The event methods are each compiled once. Left to the JIT, C1 did not inline them into the hooks (too large), so
 * each became hot and was C2-compiled on its own, and then again inside its hook when the hook reached C2 — the
 * runtime's hot code compiled twice (a JFR trace: ~3 KB of the ~9 KB C2 inlined per run, on a machine where the
 * single C2 thread compiles ~30 KB/s while the program waits in C1 code). The access methods, one call per program
 * access, are {@code @ForceInline} (C1 and C2 inline them into their one hook: no call more per access), and so are
 * the acquires, whose common case is a cover check (their lock and join are out of line in {@link HappensBefore});
 * the releases, which take a clock's lock every time, are {@code @DontInline} (the hooks around them stay small).
 */
public final class DetectRuntime {
  private final HappensBefore hb = new HappensBefore();
  private final SiteTable sites;
  private final FieldRegistry fields;
  private final RaceAggregator aggregator = new RaceAggregator();
  private final RunSummary summary;
  private final HSummaryDetector detector;
  private final ShadowMemory shadow;
  private final ThreadRegistry threads = new ThreadRegistry(hb);
  private final int maxArrayElements;
  /** predict=true: the WCP analysis every event also goes to (see {@link Predictions}); null otherwise. */
  private Predictions predict;

  public DetectRuntime(SiteTable sites, FieldRegistry fields, RunSummary summary, int stackDepth) {
    this(sites, fields, summary, stackDepth, dev.racetriage.agent.options.AgentOptions.DEFAULT_MAX_ARRAY_ELEMENTS);
  }

  /** @param maxArrayElements arrays longer than this are not checked element by element (the {@code arrays} option) */
  public DetectRuntime(SiteTable sites, FieldRegistry fields, RunSummary summary, int stackDepth,
                       int maxArrayElements) {
    this.maxArrayElements = maxArrayElements;
    this.sites = sites;
    this.fields = fields;
    this.summary = summary;
    this.detector = new HSummaryDetector(sites, aggregator,
        new StackCapture(stackDepth, StackCapture.AGENT_PREFIXES));
    this.shadow = new ShadowMemory(fields);
  }

  /** predict=true: every event also goes to the WCP analysis. Called once, before the hooks are installed. */
  public void enablePredictions() {
    predict = new Predictions(new dev.racetriage.agent.predict.WcpAnalysis.ThreadNames() {
      @Override
      public String nameOf(int tid) {
        return hb.nameOf(tid);
      }
    });
  }

  /** A prediction of the WCP analysis becomes a report (the access's site, the earlier write's thread and site). */
  @DontInline
  private void predicted(dev.racetriage.agent.predict.WcpAnalysis.Prediction p, ThreadState state, String key,
                         int site, int index) {
    detector.reportPredicted(p.kind(), state, key, site, p.writerSite(), hb.nameOf(p.writerTid()), index,
        p.witness());
  }

  /** The happens-before engine; jumble mode's write buffers read its clocks. */
  public HappensBefore engine() {
    return hb;
  }

  /** The calling thread's happens-before state (t is the calling thread's shadow). */
  ThreadState threadState(ThreadShadow t) {
    return t.state(threads);
  }

  public SiteTable sites() {
    return sites;
  }

  public FieldRegistry fields() {
    return fields;
  }

  public RaceAggregator aggregator() {
    return aggregator;
  }

  public RunSummary summary() {
    return summary;
  }

  public HSummaryDetector detector() {
    return detector;
  }

  // ---- accesses ----

  /**
   * The read hook's fast path (see {@code Hooks.readField}): true if a read of {@code object}'s field by {@code t}
   * needs no check — t covers every write to the object, which is exactly the case in which {@link #readField} does
   * nothing — decided from the object's slot without a call. Never with predictions on (they see every event).
   */
  @ForceInline
  boolean coveredRead(ThreadShadow t, Object object, int fieldId) {
    return predict == null && t.coversWritesOf(object, fieldId, shadow, threads);
  }

  @ForceInline // see the class comment
  void readField(ThreadShadow t, Object object, int fieldId, int site) {
    ObjectShadow s = t.shadowOfField(object, fieldId, shadow);
    ThreadState state = t.state(threads);
    if (predict != null) {
      var p = predict.readField(state.tid(), object, fieldId);
      if (p != null) {
        predicted(p, state, fields.key(fieldId), site, dev.racetriage.agent.detect.RaceReport.NO_INDEX);
      }
    }
    if (!s.allWritesCoveredBy(state)) {
      uncoveredFieldRead(state, s, fieldId, site);
    }
  }

  /** A read that does not cover the object's writes: their compact records become states, then the usual check. */
  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private void uncoveredFieldRead(ThreadState state, ObjectShadow s, int fieldId, int site) {
    materialize(s);
    detector.read(state, s.field(fieldId, fields), site);
  }

  private void materialize(ObjectShadow s) {
    if (s.compact()) {
      long summary = s.summary();
      s.materialize(fields, Epoch.isBottom(summary) || summary == ObjectShadow.SHARED_WRITES ? null
          : hb.nameOf(Epoch.tid(summary)));
    }
  }

  @ForceInline // see the class comment
  void writeField(ThreadShadow t, Object object, int fieldId, int site) {
    ObjectShadow s = t.shadowOfField(object, fieldId, shadow);
    ThreadState state = t.state(threads);
    if (predict != null) {
      var p = predict.writeField(state.tid(), object, fieldId, site, state.inClinit());
      if (p != null) {
        predicted(p, state, fields.key(fieldId), site, dev.racetriage.agent.detect.RaceReport.NO_INDEX);
      }
    }
    long now = state.epoch();
    if (state.inClinit() || !s.compactWrite(now, fieldId, site)) {
      stateWrite(state, s, now, fieldId, site);
    }
  }

  /** A write the compact owner records cannot take: they become states, then the h-summary write. */
  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private void stateWrite(ThreadState state, ObjectShadow s, long now, int fieldId, int site) {
    materialize(s);
    s.noteWrite(state, now);
    detector.write(state, s.field(fieldId, fields), site);
  }

  @ForceInline // see the class comment
  void readStatic(ThreadShadow t, int fieldId, int site) {
    if (predict != null) {
      ThreadState state = t.state(threads);
      var p = predict.readStatic(state.tid(), fieldId);
      if (p != null) {
        predicted(p, state, fields.key(fieldId), site, dev.racetriage.agent.detect.RaceReport.NO_INDEX);
      }
    }
    detector.read(t.state(threads), shadow.staticField(fieldId), site);
  }

  @ForceInline // see the class comment
  void writeStatic(ThreadShadow t, int fieldId, int site) {
    if (predict != null) {
      ThreadState state = t.state(threads);
      var p = predict.writeStatic(state.tid(), fieldId, site, state.inClinit());
      if (p != null) {
        predicted(p, state, fields.key(fieldId), site, dev.racetriage.agent.detect.RaceReport.NO_INDEX);
      }
    }
    detector.write(t.state(threads), shadow.staticField(fieldId), site);
  }

  // ---- array elements: flat records (see ObjectShadow#elementEpochs) ----

  private static final java.lang.invoke.VarHandle EPOCHS =
      java.lang.invoke.MethodHandles.arrayElementVarHandle(long[].class);
  /** The lock bit of an element's epoch in a shared array (epochs never have it: thread ids are not negative). */
  private static final long LOCKED = Long.MIN_VALUE;

  @ForceInline // see the class comment
  void readElement(ThreadShadow t, Object array, int index, int site) {
    ObjectShadow s = t.shadowOfReadArray(array, shadow);
    ThreadState state = t.state(threads);
    if (predict != null) {
      predictElement(s, state, array, index, site, false);
    }
    if (s.allWritesCoveredBy(state)) {
      return;
    }
    long[] epochs = s.elementEpochs();
    if (epochs == null) {
      untracked(s, array, site); // no element written yet (a write in flight is linearised after this read), or too long
      return;
    }
    // a plain long read: HotSpot's 64-bit loads do not tear; the lock bit (a write in progress) is not its epoch
    if (index >= 0 && index < epochs.length && !state.clock().covers(epochs[index] & ~LOCKED)) {
      uncoveredRead(s, state, epochs, index, site);
    }
  }

  /**
   * A read whose element's last write the reader does not cover: in a shared array the check is repeated under the
   * element's lock (linearising the read after the newest completed write, as {@code HSummaryDetector.read} does) and
   * reported with that write's site; in an owned one the owner's plain record is the truth (its site is stored before
   * its epoch).
   */
  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private void uncoveredRead(ObjectShadow s, ThreadState state, long[] epochs, int index, int site) {
    long last;
    int previousSite;
    int[] sites = s.elementSites();
    if (s.sharedWrites()) {
      last = lockElement(epochs, index);
      previousSite = sites[index]; // no call while the lock is held (see the note after lockElement)
      try {
        EPOCHS.setRelease(epochs, index, last);
      } catch (Throwable e) {
        epochs[index] = last; // see the note after lockElement
      }
    } else {
      last = epochs[index] & ~LOCKED;
      previousSite = sites[index];
    }
    if (!state.clock().covers(last)) {
      detector.reportRead(state, elementKey(s, site), site, previousSite, hb.nameOf(Epoch.tid(last)), index);
    }
  }

  @ForceInline // see the class comment
  void writeElement(ThreadShadow t, Object array, int index, int site) {
    ObjectShadow s = t.shadowOfWrittenArray(array, shadow);
    ThreadState state = t.state(threads);
    if (predict != null) {
      predictElement(s, state, array, index, site, true);
    }
    long now = state.epoch();
    s.noteWrite(state, now);
    long[] epochs = records(s, array, site);
    if (epochs == null) {
      return;
    }
    if (index < 0 || index >= epochs.length) {
      return; // the program gets its ArrayIndexOutOfBoundsException
    }
    int[] sites = s.elementSites();
    if (s.writtenOnlyAt(now)) {
      ownedWrite(state, epochs, sites, index, site, now);
    } else if (epochs[index] != now || sites[index] != site || state.inClinit()) {
      sharedWrite(state, s, epochs, sites, index, site, now); // unless the thread's same write again
    }
  }

  /**
   * A write ordered after every earlier write of the array (see ObjectShadow#noteWrite): nothing to check, only the
   * element's record to update, with plain stores (the site first: a reader that sees the epoch sees its site, stores
   * staying ordered). A thread unordered with this one that starts writing at this very moment may lock the element
   * before this store lands, and the store may clear its lock bit: it then checks against the element's previous
   * write, which can only hide a race between the two concurrent writes, never report one that is not there (ranges
   * close that window with a fence, see {@link #writeRange}; a fence per element write would cost what the record
   * saves).
   */
  private static void ownedWrite(ThreadState state, long[] epochs, int[] sites, int index, int site, long now) {
    sites[index] = site;
    epochs[index] = state.inClinit() ? Epoch.BOTTOM : now;
  }

  /**
   * The write of an element of a shared array, as {@code HSummaryDetector.write}: check-and-set under the element's
   * lock (two unordered concurrent writes always yield one WW), except for the thread's own next write from the same
   * site after a release, which moves the epoch by one compare-and-set (see {@code HSummaryDetector.recordWrite}).
   * Inside a class initialiser the write is recorded at ⊥, unchecked.
   */
  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private void sharedWrite(ThreadState state, ObjectShadow s, long[] epochs, int[] sites, int index, int site,
                           long now) {
    boolean clinit = state.inClinit();
    long seen = epochs[index];
    if (!clinit && seen >= 0 && Epoch.tid(seen) == state.tid() && sites[index] == site
        && EPOCHS.compareAndSet(epochs, index, seen, now)) {
      return;
    }
    long recorded = clinit ? Epoch.BOTTOM : now;
    long last = lockElement(epochs, index);
    int previousSite = sites[index];
    sites[index] = site;
    try { // the unlock is spelled out here, not called: see the note after lockElement
      EPOCHS.setRelease(epochs, index, recorded);
    } catch (Throwable e) {
      epochs[index] = recorded;
    }
    if (!clinit && !state.clock().covers(last)) {
      detector.reportWrite(state, elementKey(s, site), site, previousSite, hb.nameOf(Epoch.tid(last)), index);
    }
  }

  /** predict=true: an element access through the WCP analysis, reported under the array's key. */
  @DontInline
  private void predictElement(ObjectShadow s, ThreadState state, Object array, int index, int site, boolean write) {
    var p = write ? predict.writeElement(state.tid(), array, index, site, state.inClinit())
        : predict.readElement(state.tid(), array, index);
    if (p != null) {
      predicted(p, state, elementKey(s, site), site, index);
    }
  }

  /** predict=true: a range's elements through the WCP analysis, one by one. */
  @DontInline
  private void predictRange(ObjectShadow s, ThreadState state, Object array, int from, int to, int step, int site,
                            boolean write) {
    predict.range(state.tid(), array, firstInBounds(from, step), to, step, site, write, state.inClinit(),
        new Predictions.Found() { // not a lambda: see the package contract
          @Override
          public void at(int index, dev.racetriage.agent.predict.WcpAnalysis.Prediction p) {
            predicted(p, state, elementKey(s, site), site, index);
          }
        });
  }

  /** Takes element {@code index}'s lock (its epoch's top bit) and returns its epoch; see {@code LocationState#lock}. */
  private static long lockElement(long[] epochs, int index) {
    for (int spins = 0; ; spins++) {
      long epoch = (long) EPOCHS.getVolatile(epochs, index);
      if (epoch >= 0 && EPOCHS.compareAndSet(epochs, index, epoch, epoch | LOCKED)) {
        return epoch;
      }
      dev.racetriage.agent.hb.Backoff.pause(spins);
    }
  }

  // An element's lock is given back by storing the new epoch with release semantics (the site stored before it is
  // seen with it), written out where the lock is held rather than in a method: between the lock and that store there
  // is no call, because a call may throw StackOverflowError on a deep stack before it runs, and a lock left held
  // would hang every thread that touches the element. setRelease is such a call; if it throws, its handler's plain
  // store (a bytecode that cannot fail so) gives the lock back all the same (DeepStacksIT).

  /** The array's element records for a write; null (and counted) for an array too long to shadow. */
  private long[] records(ObjectShadow s, Object array, int site) {
    long[] epochs = s.elementEpochs();
    return epochs != null ? epochs : allocateRecords(s, array, site);
  }

  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private long[] allocateRecords(ObjectShadow s, Object array, int site) {
    if (s.untrackedArray()) {
      return null; // counted already: no monitor on every write of a huge array
    }
    long[] epochs = s.records(array, unnamedKey(s, site), maxArrayElements);
    if (epochs == null) {
      untracked(s, array, site);
    }
    return epochs;
  }

  /** The key an element race of this array is reported under (its field's, or its first writer's method's). */
  private String elementKey(ObjectShadow s, int site) {
    return s.elementKey(unnamedKey(s, site));
  }

  /** The key of an array no field was seen to hold, named after the site's method; null if a field names it. */
  private String unnamedKey(ObjectShadow s, int site) {
    return s.arrayKey() != null ? null : unnamedArrayKey(site);
  }

  /**
   * A hoisted loop read elements {@code from, from + step, …} below {@code to} with this clock (it did not
   * synchronise): each is checked as {@link #readElement} checks it. Indices outside the array are dropped (the loop
   * cannot have accessed them).
   */
  @ForceInline // see the class comment
  void readRange(ThreadShadow t, Object array, int from, int to, int step, int site) {
    ObjectShadow s = t.shadowOfReadArray(array, shadow);
    ThreadState state = t.state(threads);
    if (predict != null) {
      predictRange(s, state, array, from, to, step, site, false);
    }
    if (s.allWritesCoveredBy(state)) {
      return;
    }
    long[] epochs = s.elementEpochs();
    if (epochs == null) {
      untracked(s, array, site);
      return;
    }
    VectorClock clock = state.clock();
    int end = Math.min(to, epochs.length);
    for (int i = firstInBounds(from, step); i < end; i += step) {
      if (!clock.covers(epochs[i] & ~LOCKED)) {
        uncoveredRead(s, state, epochs, i, site);
      }
    }
  }

  /** The first of {@code from, from + step, …} that is not negative. */
  private static int firstInBounds(int from, int step) {
    return from >= 0 ? from : from + (int) ((-(long) from + step - 1) / step) * step;
  }

  /**
   * A hoisted loop wrote elements {@code from, from + step, …} below {@code to}: each is checked and recorded as
   * {@link #writeElement} does.
   */
  @ForceInline // see the class comment
  void writeRange(ThreadShadow t, Object array, int from, int to, int step, int site) {
    ObjectShadow s = t.shadowOfWrittenArray(array, shadow);
    ThreadState state = t.state(threads);
    if (predict != null) {
      predictRange(s, state, array, from, to, step, site, true);
    }
    long now = state.epoch();
    boolean clinit = state.inClinit();
    if (!clinit && step == 1 && s.rangeRepeats(now, from, to, site)) {
      return; // every element already holds this write (see ObjectShadow#rangeRepeats)
    }
    s.noteWrite(state, now);
    long[] epochs = records(s, array, site);
    if (epochs == null) {
      return;
    }
    int[] sites = s.elementSites();
    int start = firstInBounds(from, step);
    int end = Math.min(to, epochs.length);
    if (s.writtenOnlyAt(now)) {
      long epoch = clinit ? Epoch.BOTTOM : now;
      if (step == 1 && start < end) {
        java.util.Arrays.fill(sites, start, end, site);
        java.util.Arrays.fill(epochs, start, end, epoch);
      } else {
        for (int i = start; i < end; i += step) {
          sites[i] = site;
          epochs[i] = epoch;
        }
      }
      // Dekker with a second, unordered writer, whose summary update is a compare-and-set before it locks any
      // element: either it sees the records just stored, or this thread sees its update and records the range again
      // the shared way below (checked against whatever that writer stored)
      java.lang.invoke.VarHandle.fullFence();
      if (s.writtenOnlyAt(now)) {
        if (!clinit && step == 1 && start < end) {
          s.noteRange(now, start, end, site);
        }
        return;
      }
    }
    for (int i = start; i < end; i += step) {
      if (clinit || epochs[i] != now || sites[i] != site) {
        sharedWrite(state, s, epochs, sites, i, site, now);
      }
    }
    if (!clinit && step == 1 && start < end) {
      s.noteRange(now, start, end, site);
    }
  }

  /**
   * An array too long to shadow is counted once, as its element hooks count it, and named in the summary (its key,
   * element type and length): the report says which arrays went unchecked, not only how many.
   */
  private void untracked(ObjectShadow s, Object array, int site) {
    if (s.untrackedArray() && s.markCounted()) {
      synchronized (this) {
        untrackedArrays++;
      }
      summary.untrackedArray(elementKey(s, site), array.getClass().getComponentType().getName(),
          java.lang.reflect.Array.getLength(array));
    }
  }

  /** An array no field was seen to hold is named after the method that first touched it (cached per site). */
  private String unnamedArrayKey(int site) {
    String[] cache = unnamedKeys;
    String key = site >= 0 && site < cache.length ? cache[site] : null;
    return key != null ? key : newUnnamedArrayKey(site);
  }

  /**
   * The first element of an unnamed array at this site: builds and caches the key. Out of line: it runs once per site
   * while {@link #unnamedArrayKey} runs once per element (a matrix's rows: 10^5 times), and C2 compiling the string
   * building and the site table lookup into that caller cost ~90 ms per run.
   */
  @DontInline
  private String newUnnamedArrayKey(int site) {
    String key;
    var where = sites.site(site);
    key = where.className() + "." + where.methodName() + "()[]";
    synchronized (this) {
      if (site >= 0) {
        if (site >= unnamedKeys.length) {
          unnamedKeys = java.util.Arrays.copyOf(unnamedKeys, Math.max(site + 1, unnamedKeys.length * 2));
        }
        unnamedKeys[site] = key;
      }
    }
    return key;
  }

  private volatile String[] unnamedKeys = new String[64];
  private long untrackedArrays;

  /** Arrays longer than the {@code arrays} bound whose elements went unchecked. */
  public synchronized long untrackedArrays() {
    return untrackedArrays;
  }

  @DontInline // see the class comment
  void noteArrayField(ThreadShadow t, Object array, int fieldId) {
    // the array just read from a field is usually indexed next: its element read then hits the same cache entry
    ObjectShadow s = t.shadowOfReadArray(array, shadow);
    if (s.arrayKey() == null) { // the first field names it: no string built on every later read of the field
      s.noteArrayKey(fields.key(fieldId) + "[]");
    }
  }

  // ---- synchronisation ----

  /** After monitorenter (and after Object.wait returns): ACQUIRE the object's monitor. */
  @ForceInline // see the class comment
  void monitorEnter(ThreadShadow t, Object object) {
    monitorEnter(t, object, false);
  }

  /** {@code transparent}: predict=true, a section the agent sees whole (see TransparentSections). */
  @ForceInline // see the class comment
  void monitorEnter(ThreadShadow t, Object object, boolean transparent) {
    if (predict != null) {
      predict.monitorEnter(t.state(threads).tid(), object, transparent);
    }
    SyncClock released = t.shadowOf(object, shadow).monitorIfReleased();
    if (released != null) { // a monitor never released has nothing to give
      hb.acquire(t.state(threads), released);
    }
  }

  /** Before monitorexit (and before Object.wait): RELEASE the object's monitor. */
  @DontInline // see the class comment
  void monitorExit(ThreadShadow t, Object object) {
    if (predict != null) {
      predict.monitorExit(t.state(threads).tid(), object);
    }
    hb.release(t.state(threads), t.shadowOf(object, shadow).monitor());
  }

  /** After a volatile read: ACQUIRE the field's clock and the object's atomic clock. */
  @ForceInline // see the class comment
  void volatileRead(ThreadShadow t, Object object, int fieldId) {
    if (predict != null) {
      predict.acquire(t.state(threads).tid(), object);
    }
    ObjectShadow s = t.shadowOf(object, shadow);
    SyncClock field = s.volatileFieldIfReleased(fieldId);
    SyncClock atomic = s.atomicIfReleased();
    if (field != null) {
      hb.acquire(t.state(threads), field);
    }
    if (atomic != null) {
      hb.acquire(t.state(threads), atomic);
    }
  }

  /** Before a volatile write: RELEASE to the field's clock. */
  @DontInline // see the class comment
  void volatileWrite(ThreadShadow t, Object object, int fieldId) {
    if (predict != null) {
      predict.release(t.state(threads).tid(), object);
    }
    hb.release(t.state(threads), t.shadowOf(object, shadow).volatileField(fieldId));
  }

  /** After an atomic operation that reads: ACQUIRE the atomic clock and every volatile field clock. */
  @ForceInline // see the class comment
  void atomicAcquire(ThreadShadow t, Object object) {
    if (predict != null) {
      predict.acquire(t.state(threads).tid(), object);
    }
    ObjectShadow s = t.shadowOf(object, shadow);
    ThreadState state = t.state(threads);
    SyncClock atomic = s.atomicIfReleased();
    if (atomic != null) {
      hb.acquire(state, atomic);
    }
    for (SyncClock clock : s.volatileClocks()) {
      hb.acquire(state, clock);
    }
  }

  /** Before an atomic operation that writes: RELEASE to the atomic clock (volatile readers acquire it too). */
  @DontInline // see the class comment
  void atomicRelease(ThreadShadow t, Object object) {
    if (predict != null) {
      predict.release(t.state(threads).tid(), object);
    }
    hb.release(t.state(threads), t.shadowOf(object, shadow).atomic());
  }

  /**
   * Before an atomic operation that reads and writes (CAS, getAndAdd): ACQUIRE and RELEASE the atomic clock at once.
   * Acquiring it here as well as after the operation changes no clock: the acquire after joins a clock that only grew
   * since, and the clock released is L ⊔ C(t) either way. It saves the acquire after its monitor and join: the
   * released clock's cover is then t's own epoch (a contended lock() was a join more per call).
   */
  @DontInline // see the class comment
  void atomicAcquireRelease(ThreadShadow t, Object object) {
    if (predict != null) {
      int tid = t.state(threads).tid();
      predict.acquire(tid, object);
      predict.release(tid, object);
    }
    hb.acquireRelease(t.state(threads), t.shadowOf(object, shadow).atomic());
  }

  /** Acquire the holder's atomic clock if it has one; never creates shadow state for the holder. */
  @ForceInline // see the class comment
  void trustedReferenceRead(ThreadShadow t, Object holder) {
    if (predict != null) {
      predict.peekAcquire(t.state(threads).tid(), holder);
    }
    ObjectShadow s = t.peekShadow(holder, shadow);
    SyncClock atomic = s == null ? null : s.atomicIfReleased();
    if (atomic != null) {
      hb.acquire(t.state(threads), atomic);
    }
  }

  @ForceInline // see the class comment
  void volatileReadStatic(ThreadShadow t, int fieldId) {
    if (predict != null) {
      predict.acquireStatic(t.state(threads).tid(), fieldId);
    }
    hb.acquire(t.state(threads), shadow.staticSync(fieldId));
  }

  @DontInline // see the class comment
  void volatileWriteStatic(ThreadShadow t, int fieldId) {
    if (predict != null) {
      predict.releaseStatic(t.state(threads).tid(), fieldId);
    }
    hb.release(t.state(threads), shadow.staticSync(fieldId));
  }

  void fork(ThreadShadow t, Thread child) {
    ThreadState childState = threads.stateOf(child);
    hb.rename(childState, child.getName());
    if (predict != null) {
      predict.fork(t.state(threads).tid(), childState.tid());
    }
    hb.fork(t.state(threads), childState);
  }

  void join(ThreadShadow t, Thread joined) {
    if (predict != null) {
      predict.join(t.state(threads).tid(), threads.stateOf(joined).tid());
    }
    hb.join(t.state(threads), threads.stateOf(joined));
  }

  void enterClinit(ThreadShadow t) {
    t.state(threads).enterClinit();
  }

  void exitClinit(ThreadShadow t) {
    t.state(threads).exitClinit();
  }

  void internalError() {
    summary.internalError();
  }

  int trackedObjects() {
    return shadow.trackedObjects();
  }
}
