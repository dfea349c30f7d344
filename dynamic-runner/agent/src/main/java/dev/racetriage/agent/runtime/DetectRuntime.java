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
 * The element accesses, {@link #readElement} and {@link #writeElement}, are {@code @ForceInline} too: their uncommon
 * traps make the element hooks' compiled code not entrant now and then, which instrumented code survives because it
 * calls the element hooks through {@link HookEntry}'s forwarders (see there: out of line before the forwarders, the
 * hooks' own cover checks still trapped, and the Java Grande SOR ran 8–40 s instead of 1.3 s in most runs).
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
  /**
   * predict=true: the WCP analysis every event also goes to (see {@link Predictions}); null otherwise, while an
   * analysis waits for a second thread ({@link #waiting}), and from the moment its budget is spent (then an event
   * costs one read of this field and of {@link #waiting}). Read through {@link #predictions} once per event.
   */
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

  /** predict=true: each analysis's budget in events (0: one analysis, no limit); -1: predict=false. */
  private long predictBudget = -1;
  /** Guards the switch from one analysis to the next and the counts below (taken after an analysis's monitor). */
  private final Object predictSwitch = new Object();
  private long predictEventsRetired;
  /** The launcher started a test in this JVM (guarded by {@link #predictSwitch}). */
  private boolean testsStarted;
  /** Events after which the first analysis stopped before any test started; 0 if it did not. */
  private long stoppedBeforeTests;

  /**
   * predict=true: every event also goes to the WCP analysis, until it has taken {@code budget} events (0: no limit;
   * the {@code predictEvents} option); then it stops, the summary says after how many, and detection goes on
   * without it. Each test the launcher starts gets a fresh analysis with a fresh budget ({@link #testStarted}).
   * Called once, before the hooks are installed.
   */
  public void enablePredictions(long budget) {
    predictBudget = budget;
    if (budget > 0) {
      waiting = new Waiting(newPredictions(), Thread.currentThread());
    } else {
      predict = newPredictions();
    }
    Hooks.ownedReadsFor(this);
  }

  /**
   * predict=true with a budget: an analysis that waits for a second thread — it takes no event until a thread other
   * than {@link #solo} reaches a hook's slow path, or any thread starts another ({@link #fork}); then it becomes
   * {@link #predict} and takes every event. WCP predicts only races between two threads' accesses, and those of a
   * thread before it starts another are ordered before everything the started thread does, so a single-threaded test
   * (most of a real suite's) neither pays for an analysis nor loses the hooks' fast paths (off while an analysis takes
   * every event) for its first events. What waiting gives up: a race between an access of the single-threaded part and a
   * thread that was running before the analysis (a pool started before the test) which only reordering critical
   * sections would expose. Once started, the analysis sees a suffix of the trace, as a fresh analysis at a test's start
   * does ({@link #testStarted}), with the same soundness; the suffix is a consistent cut because every event that
   * follows the second thread's first event in happens-before order comes after an acquire whose hook (never a fast
   * path when it gains something: a covered acquire gains nothing) reads the volatile {@link #waiting}.
   */
  private static final class Waiting {
    final Predictions analysis;
    final Thread solo;

    Waiting(Predictions analysis, Thread solo) {
      this.analysis = analysis;
      this.solo = solo;
    }
  }

  /** predict=true with a budget: the analysis waiting for a second thread, or null (see {@link Waiting}). */
  private volatile Waiting waiting;

  /**
   * The analysis this slow-path event goes to: {@link #predict}, or the waiting one if another thread than its solo
   * thread sends the event (it starts now), or null.
   */
  @ForceInline // into every hook's slow path: two loads and compares
  private Predictions predictions() {
    Predictions p = predict;
    if (p == null) {
      Waiting w = waiting;
      if (w == null) {
        p = predict; // again after the volatile read: a wake that cleared it set this first
      } else if (w.solo != Thread.currentThread()) {
        p = wake();
      }
    }
    return p;
  }

  /** The waiting analysis starts (if one waits): it becomes {@link #predict}, the owned-read guards go off. */
  @DontInline // once per analysis
  private Predictions wake() {
    synchronized (predictSwitch) {
      Waiting w = waiting;
      if (w != null) {
        predict = w.analysis;
        waiting = null;
        Hooks.ownedReadsFor(this);
      }
      return predict;
    }
  }

  /** True while a predictive analysis takes every read (the owned-read guard must not skip any: see Hooks). */
  boolean seesEveryRead() {
    return predict != null;
  }

  private Predictions newPredictions() {
    return new Predictions(new dev.racetriage.agent.predict.WcpAnalysis.ThreadNames() {
      @Override
      public String nameOf(int tid) {
        return hb.nameOf(tid);
      }
    }, predictBudget, new Predictions.Stop() { // not a lambda: see the package contract
      @Override
      public void stopped(Predictions which, long events) {
        synchronized (predictSwitch) {
          if (predict == which) {
            predict = null;
            Hooks.ownedReadsFor(DetectRuntime.this);
          }
          predictEventsRetired += events;
          // a gap in a test, or in a program run without tests; not in the test framework's own code before and
          // between tests (discovery, reporting), which is no test's and would make every triage warn
          if (!testsStarted) {
            stoppedBeforeTests = events; // counted at exit if no test ever started: a plain program
          } else if (aggregator.currentTest() != null) {
            summary.predictionStopped(events);
          }
        }
      }
    });
  }

  /**
   * The launcher starts a test: races name it from now on, and with a bounded budget the predictive analysis starts
   * afresh (the last test's state dropped, a new budget), so a long suite's later tests are predicted too and each
   * test's prediction costs at most its budget. A fresh analysis sees the rest of the trace from here: a critical
   * section begun before counts as a hard edge at its release (WcpAnalysis), and earlier writes are forgotten, so it
   * predicts no race the whole trace's analysis would not (it may miss races with the earlier tests' accesses).
   */
  public void testStarted(String testId) {
    aggregator.testStarted(testId);
    if (Hooks.installed(this)) {
      Hooks.testStarted();
    }
    if (predictBudget <= 0) {
      return; // off, or one analysis for the whole run
    }
    Predictions old;
    synchronized (predictSwitch) {
      testsStarted = true;
      Waiting w = waiting;
      old = w != null ? w.analysis : predict;
      predict = null;
      waiting = new Waiting(newPredictions(), Thread.currentThread());
      Hooks.ownedReadsFor(this);
    }
    long events = old == null ? 0 : old.retire();
    synchronized (predictSwitch) {
      predictEventsRetired += events;
    }
  }

  /** At exit: the events every predictive analysis of the run took, into the summary; nothing if prediction is off. */
  public void recordPredictionEvents() {
    if (predictBudget < 0) {
      return;
    }
    Predictions p = predict;
    long current = p == null ? 0 : p.events();
    synchronized (predictSwitch) {
      summary.predictionEvents(predictEventsRetired + current);
      if (!testsStarted && stoppedBeforeTests > 0) {
        summary.predictionStopped(stoppedBeforeTests);
      }
    }
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

  /** The shadow memory (tests look at an object's shadow). */
  ShadowMemory shadowMemory() {
    return shadow;
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
   * nothing — decided from the object's slot without a call. Not while a predictive analysis runs (it sees every
   * event): by default until the test's budget is spent.
   */
  @ForceInline
  boolean coveredRead(ThreadShadow t, Object object, int fieldId) {
    return predict == null && t.coversWritesOf(object, fieldId, shadow, threads);
  }

  /**
   * The element read hook's fast path (see {@code Hooks.readElement}): true if {@code t} covers every write to
   * {@code array}, whose shadow its caches hold — exactly the case in which {@link #readElement} does nothing. Not while
   * a predictive analysis runs.
   */
  @ForceInline
  boolean coveredElementRead(ThreadShadow t, Object array) {
    return predict == null && t.coversElementWritesOf(array, shadow, threads);
  }

  /**
   * The element write hook's fast path (see {@code Hooks.writeElement}): true if {@code t}'s write of element
   * {@code index} of {@code array} from {@code site} was an owner's write, now recorded — the array is one of
   * {@code t}'s last two written ones, {@code t} is its writer, its write summary is {@code t}'s current epoch and the
   * element's record is at hand ({@code ThreadShadow.ownsElementWrite}): exactly the case in which
   * {@link #writeElement} only stores the element's epoch and site ({@link #ownedWrite}), which this does. Not while a
   * predictive analysis runs.
   */
  @ForceInline
  boolean ownedElementWrite(ThreadShadow t, Object array, int index, int site) {
    return predict == null && t.ownsElementWrite(array, index, site, shadow);
  }

  @ForceInline // see the class comment
  void readField(ThreadShadow t, Object object, int fieldId, int site) {
    ObjectShadow s = t.shadowOfField(object, fieldId, shadow);
    ThreadState state = t.state(threads);
    Predictions predict = predictions();
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

  /**
   * The write hook's fast path (see {@code Hooks.writeField}): true if a write of {@code object}'s field by {@code t}
   * from {@code site} changes nothing but a site — its thread's write again in the same epoch of a field it already
   * recorded ({@code ObjectShadow.rewrite}) — decided from the object's slot without a call. Not while a predictive
   * analysis runs (it sees every event).
   */
  @ForceInline
  boolean recordedWrite(ThreadShadow t, Object object, int fieldId, int site) {
    return recordedWrite(t, object, fieldId, site, 0L, 0L);
  }

  /**
   * {@link #recordedWrite(ThreadShadow, Object, int, int)}; a record whose site it changes keeps only the owned-write
   * stamp's bits in {@code keep} (see {@code ObjectShadow#stampSites}), and a settled write of a slotted object
   * stamps the guarded site's {@code bit} (0: none).
   */
  @ForceInline
  boolean recordedWrite(ThreadShadow t, Object object, int fieldId, int site, long keep, long bit) {
    return predict == null && t.rewrites(object, fieldId, site, shadow, threads, keep, bit);
  }

  /**
   * The full write of an instance field. For a guarded site's write that neither its owned-write guard nor the rewrite
   * check settled ({@code Hooks.writeFieldGuarded}): a record's site change keeps only the stamp's bits in
   * {@code keep} (those not of the field's guarded sites), and afterwards the site's {@code bit} goes into the stamp
   * if the records now hold this write in the writer's current epoch ({@code ObjectShadow.stamp}, which checks the
   * records themselves). Any other write passes 0 for both.
   */
  @ForceInline // see the class comment
  void writeField(ThreadShadow t, Object object, int fieldId, int site, long keep, long bit) {
    ThreadState state = t.state(threads);
    ObjectShadow s = state.inClinit() ? t.shadowOfField(object, fieldId, shadow)
        : t.shadowOfWrittenField(object, fieldId, shadow, state.epoch(), site);
    Predictions predict = predictions();
    if (predict != null) {
      var p = predict.writeField(state.tid(), object, fieldId, site, state.inClinit());
      if (p != null) {
        predicted(p, state, fields.key(fieldId), site, dev.racetriage.agent.detect.RaceReport.NO_INDEX);
      }
    }
    long now = state.epoch();
    if (state.inClinit() || !s.compactWrite(now, fieldId, site, keep)) {
      stateWrite(state, s, now, fieldId, site);
    } else if (bit != 0) {
      s.stamp(now, fieldId, site, bit);
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
    Predictions predict = predictions();
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
    Predictions predict = predictions();
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

  @ForceInline // into the element hook: see the class comment
  void readElement(ThreadShadow t, Object array, int index, int site) {
    ObjectShadow s = t.shadowOfReadArray(array, shadow);
    ThreadState state = t.state(threads);
    Predictions predict = predictions();
    if (predict != null) {
      predictElement(predict, s, state, array, index, site, false);
    }
    if (s.allWritesCoveredBy(state)) {
      return;
    }
    long[] epochs = s.elementEpochs();
    if (epochs == null) {
      ElementChunks chunks = s.elementChunks();
      if (chunks != null) {
        readChunked(s, state, chunks, index, site);
      } else {
        untracked(s, array, site); // no element written yet (a write in flight is linearised after this read), or too long
      }
      return;
    }
    // a plain long read: HotSpot's 64-bit loads do not tear; the lock bit (a write in progress) is not its epoch
    if (index >= 0 && index < epochs.length && !state.clock().covers(epochs[index] & ~LOCKED)) {
      uncoveredRead(s, state, epochs, s.elementSites(), index, index, site);
    }
  }

  /** {@link #readElement} of a long array: its element's chunk, or the chunk's uniform record. */
  @ForceInline // see the class comment
  private void readChunked(ObjectShadow s, ThreadState state, ElementChunks chunks, int index, int site) {
    if (index < 0 || index >= chunks.length) {
      return;
    }
    int c = index >>> ElementChunks.SHIFT;
    ElementChunks.Chunk k = chunks.chunk(c);
    if (k == null) {
      if (!state.clock().covers(chunks.uniformEpoch(c))) {
        uncoveredUniformRead(s, state, chunks, c, index, site);
      }
    } else if (!state.clock().covers(k.epochs[index & ElementChunks.MASK] & ~LOCKED)) {
      uncoveredRead(s, state, k.epochs, k.sites, index & ElementChunks.MASK, index, site);
    }
  }

  /**
   * A read of an element of a uniform chunk that does not cover the chunk's record. Only the owner changes that record
   * (in its owner mode); any other writer allocates the chunk first (see {@link ElementChunks}), so if the chunk is
   * still uniform the record is the element's last write.
   */
  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private void uncoveredUniformRead(ObjectShadow s, ThreadState state, ElementChunks chunks, int c, int index,
                                    int site) {
    ElementChunks.Chunk k = chunks.chunk(c);
    if (k != null) { // allocated meanwhile: the element's own record
      int at = index & ElementChunks.MASK;
      if (!state.clock().covers(k.epochs[at] & ~LOCKED)) {
        uncoveredRead(s, state, k.epochs, k.sites, at, index, site);
      }
      return;
    }
    long last = chunks.uniformEpoch(c);
    int previousSite = chunks.uniformSite(c);
    if (!state.clock().covers(last)) {
      detector.reportRead(state, elementKey(s, site), site, previousSite, hb.nameOf(Epoch.tid(last)), index);
    }
  }

  /**
   * A read whose element's last write the reader does not cover: in a shared array the check is repeated under the
   * element's lock (linearising the read after the newest completed write, as {@code HSummaryDetector.read} does) and
   * reported with that write's site; in an owned one the owner's plain record is the truth (its site is stored before
   * its epoch).
   */
  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private void uncoveredRead(ObjectShadow s, ThreadState state, long[] epochs, int[] sites, int at, int index,
                             int site) {
    long last;
    int previousSite;
    if (s.sharedWrites()) {
      last = lockElement(epochs, at);
      previousSite = sites[at]; // no call while the lock is held (see the note after lockElement)
      try {
        EPOCHS.setRelease(epochs, at, last);
      } catch (Throwable e) {
        epochs[at] = last; // see the note after lockElement
      }
    } else {
      last = epochs[at] & ~LOCKED;
      previousSite = sites[at];
    }
    if (!state.clock().covers(last)) {
      detector.reportRead(state, elementKey(s, site), site, previousSite, hb.nameOf(Epoch.tid(last)), index);
    }
  }

  @ForceInline // into the element hook: see the class comment
  void writeElement(ThreadShadow t, Object array, int index, int site) {
    ObjectShadow s = t.shadowOfWrittenArray(array, shadow);
    ThreadState state = t.state(threads);
    Predictions predict = predictions();
    if (predict != null) {
      predictElement(predict, s, state, array, index, site, true);
    }
    long now = state.epoch();
    s.noteWrite(state, now);
    long[] epochs = s.elementEpochs();
    if (epochs == null) {
      ElementChunks chunks = s.elementChunks();
      if (chunks == null) {
        if (!allocateRecords(s, array, site)) {
          return;
        }
        epochs = s.elementEpochs();
        chunks = s.elementChunks();
      }
      if (chunks != null) {
        writeChunked(state, s, chunks, index, site, now);
        return;
      }
    }
    if (index < 0 || index >= epochs.length) {
      return; // the program gets its ArrayIndexOutOfBoundsException
    }
    writeRecord(state, s, epochs, s.elementSites(), index, index, site, now);
  }

  /** {@link #writeElement} of a long array: into its element's chunk, allocated if it was uniform. */
  @ForceInline // see the class comment
  private void writeChunked(ThreadState state, ObjectShadow s, ElementChunks chunks, int index, int site, long now) {
    if (index < 0 || index >= chunks.length) {
      return; // the program gets its ArrayIndexOutOfBoundsException
    }
    int c = index >>> ElementChunks.SHIFT;
    ElementChunks.Chunk k = chunks.allocated(c);
    writeRecord(state, s, k.epochs, k.sites, index & ElementChunks.MASK, index, site, now);
  }

  /** An element write into its record: {@code at} in the records {@code epochs}/{@code sites}, {@code index} in the array. */
  @ForceInline // see the class comment
  private void writeRecord(ThreadState state, ObjectShadow s, long[] epochs, int[] sites, int at, int index, int site,
                           long now) {
    if (s.writtenOnlyAt(now)) {
      ownedWrite(state, epochs, sites, at, site, now);
    } else if (epochs[at] != now || sites[at] != site || state.inClinit()) {
      sharedWrite(state, s, epochs, sites, at, index, site, now); // unless the thread's same write again
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
  private void sharedWrite(ThreadState state, ObjectShadow s, long[] epochs, int[] sites, int at, int index, int site,
                           long now) {
    boolean clinit = state.inClinit();
    long seen = epochs[at];
    if (!clinit && seen >= 0 && Epoch.tid(seen) == state.tid() && sites[at] == site
        && EPOCHS.compareAndSet(epochs, at, seen, now)) {
      return;
    }
    long recorded = clinit ? Epoch.BOTTOM : now;
    long last = lockElement(epochs, at);
    int previousSite = sites[at];
    sites[at] = site;
    try { // the unlock is spelled out here, not called: see the note after lockElement
      EPOCHS.setRelease(epochs, at, recorded);
    } catch (Throwable e) {
      epochs[at] = recorded;
    }
    if (!clinit && !state.clock().covers(last)) {
      detector.reportWrite(state, elementKey(s, site), site, previousSite, hb.nameOf(Epoch.tid(last)), index);
    }
  }

  /** predict=true: an element access through the WCP analysis, reported under the array's key. */
  @DontInline
  private void predictElement(Predictions predict, ObjectShadow s, ThreadState state, Object array, int index,
                              int site, boolean write) {
    var p = write ? predict.writeElement(state.tid(), array, index, site, state.inClinit())
        : predict.readElement(state.tid(), array, index);
    if (p != null) {
      predicted(p, state, elementKey(s, site), site, index);
    }
  }

  /** predict=true: a range's elements through the WCP analysis, one by one. */
  @DontInline
  private void predictRange(Predictions predict, ObjectShadow s, ThreadState state, Object array, int from, int to,
                            int step, int site, boolean write) {
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

  /** Allocates the array's element records for its first write; false (and counted) for an array too long to shadow. */
  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private boolean allocateRecords(ObjectShadow s, Object array, int site) {
    if (s.untrackedArray()) {
      return false; // counted already: no monitor on every write of a huge array
    }
    boolean tracked = s.records(array, unnamedKey(s, site), maxArrayElements);
    if (!tracked) {
      untracked(s, array, site);
    }
    return tracked;
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
    Predictions predict = predictions();
    if (predict != null) {
      predictRange(predict, s, state, array, from, to, step, site, false);
    }
    if (s.allWritesCoveredBy(state)) {
      return;
    }
    long[] epochs = s.elementEpochs();
    if (epochs == null) {
      ElementChunks chunks = s.elementChunks();
      if (chunks != null) {
        readChunkedRange(s, state, chunks, from, to, step, site);
      } else {
        untracked(s, array, site);
      }
      return;
    }
    VectorClock clock = state.clock();
    int end = Math.min(to, epochs.length);
    for (int i = firstInBounds(from, step); i < end; i += step) {
      if (!clock.covers(epochs[i] & ~LOCKED)) {
        uncoveredRead(s, state, epochs, s.elementSites(), i, i, site);
      }
    }
  }

  /** {@link #readRange} of a long array, chunk by chunk: a uniform chunk's record is checked once. */
  @DontInline // out of the hooks: compiled once, a call per access of a long array (see the class comment)
  private void readChunkedRange(ObjectShadow s, ThreadState state, ElementChunks chunks, int from, int to, int step,
                                int site) {
    VectorClock clock = state.clock();
    int end = Math.min(to, chunks.length);
    int i = firstInBounds(from, step);
    while (i < end) {
      int c = i >>> ElementChunks.SHIFT;
      int chunkEnd = Math.min(end, chunks.end(c));
      ElementChunks.Chunk k = chunks.chunk(c);
      if (k == null) {
        if (clock.covers(chunks.uniformEpoch(c))) {
          i += (int) (((long) chunkEnd - i + step - 1) / step) * step; // the chunk's first index past it
        }
        for (; i < chunkEnd; i += step) {
          uncoveredUniformRead(s, state, chunks, c, i, site);
        }
      } else {
        int base = ElementChunks.start(c);
        long[] epochs = k.epochs;
        for (; i < chunkEnd; i += step) {
          if (!clock.covers(epochs[i - base] & ~LOCKED)) {
            uncoveredRead(s, state, epochs, k.sites, i - base, i, site);
          }
        }
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
    t.forgetRepeatable(); // its elements' records may now hold this range's site
    ObjectShadow s = t.shadowOfWrittenArray(array, shadow);
    ThreadState state = t.state(threads);
    Predictions predict = predictions();
    if (predict != null) {
      predictRange(predict, s, state, array, from, to, step, site, true);
    }
    long now = state.epoch();
    boolean clinit = state.inClinit();
    if (!clinit && step == 1 && s.rangeRepeats(now, from, to, site)) {
      return; // every element already holds this write (see ObjectShadow#rangeRepeats)
    }
    s.noteWrite(state, now);
    long[] epochs = s.elementEpochs();
    // the array's first element write (a fresh copy, a filled buffer) notes no range: most such arrays are written
    // once, and a range only pays when a loop writes it again (a second write notes it)
    boolean first = false;
    if (epochs == null) {
      ElementChunks chunks = s.elementChunks();
      if (chunks == null) {
        if (!allocateRecords(s, array, site)) {
          return;
        }
        first = true;
        epochs = s.elementEpochs();
        chunks = s.elementChunks();
      }
      if (chunks != null) {
        writeChunkedRange(state, s, chunks, from, to, step, site, now, first);
        return;
      }
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
        if (!clinit && !first && step == 1 && start < end) {
          s.noteRange(now, start, end, site);
        }
        return;
      }
    }
    for (int i = start; i < end; i += step) {
      if (clinit || epochs[i] != now || sites[i] != site) {
        sharedWrite(state, s, epochs, sites, i, i, site, now);
      }
    }
    if (!clinit && !first && step == 1 && start < end) {
      s.noteRange(now, start, end, site);
    }
  }

  /**
   * {@link #writeRange} of a long array. In the owner's mode a chunk the range covers whole and that is still uniform
   * takes the write as its uniform record (12 bytes for 64 elements: filling an array allocates no chunk); any other
   * chunk is allocated and written as the flat records are. The same fence and re-read of the summary as there closes
   * the owner's mode (see {@link ElementChunks} for why a concurrent allocation cannot lose a write either way).
   */
  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private void writeChunkedRange(ThreadState state, ObjectShadow s, ElementChunks chunks, int from, int to, int step,
                                 int site, long now, boolean first) {
    boolean clinit = state.inClinit();
    int start = firstInBounds(from, step);
    int end = Math.min(to, chunks.length);
    if (start >= end) {
      return;
    }
    if (s.writtenOnlyAt(now)) {
      long epoch = clinit ? Epoch.BOTTOM : now;
      int i = start;
      while (i < end) {
        int c = i >>> ElementChunks.SHIFT;
        int base = ElementChunks.start(c);
        int chunkEnd = Math.min(end, chunks.end(c));
        ElementChunks.Chunk k = chunks.chunk(c);
        if (k == null && step == 1 && i == base && chunkEnd == chunks.end(c)) {
          chunks.setUniform(c, epoch, site);
          i = chunkEnd;
          continue;
        }
        if (k == null) {
          k = chunks.allocated(c);
        }
        long[] epochs = k.epochs;
        int[] sites = k.sites;
        if (step == 1) {
          java.util.Arrays.fill(sites, i - base, chunkEnd - base, site);
          java.util.Arrays.fill(epochs, i - base, chunkEnd - base, epoch);
          i = chunkEnd;
        } else {
          for (; i < chunkEnd; i += step) {
            sites[i - base] = site;
            epochs[i - base] = epoch;
          }
        }
      }
      java.lang.invoke.VarHandle.fullFence(); // Dekker with an unordered writer: see writeRange
      if (s.writtenOnlyAt(now)) {
        if (!clinit && !first && step == 1) {
          s.noteRange(now, start, end, site);
        }
        return;
      }
    }
    int i = start;
    while (i < end) {
      int c = i >>> ElementChunks.SHIFT;
      int base = ElementChunks.start(c);
      int chunkEnd = Math.min(end, chunks.end(c));
      ElementChunks.Chunk k = chunks.allocated(c);
      long[] epochs = k.epochs;
      int[] sites = k.sites;
      for (; i < chunkEnd; i += step) {
        if (clinit || epochs[i - base] != now || sites[i - base] != site) {
          sharedWrite(state, s, epochs, sites, i - base, i, site, now);
        }
      }
    }
    if (!clinit && !first && step == 1) {
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

  /** A modelled container's weak-table entry, created if need be ({@code ContainerHooks}); null if it has a slot. */
  WeakIdentityTable.Entry<ObjectShadow> containerEntry(ThreadShadow t, Object container) {
    return t.tableEntryOf(container, shadow);
  }

  /** A modelled container's shadow, in its slot or the table, created if need be ({@code ContainerHooks}). */
  ObjectShadow containerShadow(ThreadShadow t, Object container) {
    return t.shadowOf(container, shadow);
  }

  @DontInline // see the class comment
  void noteArrayField(ThreadShadow t, Object array, int fieldId) {
    // the array just read from a field is usually indexed next: its element read then hits the same cache entry
    ObjectShadow s = t.shadowOfReadArray(array, shadow);
    if (s.arrayKey() == null) { // the first field names it: no string built on every later read of the field
      s.noteArrayKey(fields.arrayKey(fieldId));
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
    Predictions predict = predictions();
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
    Predictions predict = predictions();
    if (predict != null) {
      predict.monitorExit(t.state(threads).tid(), object);
    }
    hb.release(t.state(threads), t.shadowOf(object, shadow).monitor());
  }

  /** After a volatile read: ACQUIRE the field's clock and the object's atomic clock. */
  @ForceInline // see the class comment
  void volatileRead(ThreadShadow t, Object object, int fieldId) {
    Predictions predict = predictions();
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
    Predictions predict = predictions();
    if (predict != null) {
      predict.release(t.state(threads).tid(), object);
    }
    hb.release(t.state(threads), t.shadowOf(object, shadow).volatileField(fieldId));
  }

  /** After an atomic operation that reads: ACQUIRE the atomic clock and every volatile field clock. */
  @ForceInline // see the class comment
  void atomicAcquire(ThreadShadow t, Object object) {
    Predictions predict = predictions();
    if (predict != null) {
      predict.acquire(t.state(threads).tid(), object);
    }
    // An array (a hash table's buckets, acquired at every lookup) gets its shadow here if it has none, so that it sits
    // in the thread's ways, where the next acquire's cover check finds it; any other object is only looked up: a
    // shadow made for each node a lookup reads (a ConcurrentHashMap node, loaded before the agent: no slot) would
    // hold nothing but cost a table entry and a miss of the ways per node
    ObjectShadow s = object.getClass().isArray() ? t.shadowOf(object, shadow) : t.peekShadow(object, shadow);
    if (s == null) {
      return; // nothing ever released on it: nothing to acquire
    }
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
    Predictions predict = predictions();
    if (predict != null) {
      predict.release(t.state(threads).tid(), object);
    }
    ObjectShadow s = t.shadowOf(object, shadow);
    hb.release(t.state(threads), s.atomic());
    t.noteAtomicReleaser(object, s);
  }

  /**
   * Before an atomic operation that reads and writes (CAS, getAndAdd): ACQUIRE and RELEASE the atomic clock at once.
   * Acquiring it here as well as after the operation changes no clock: the acquire after joins a clock that only grew
   * since, and the clock released is L ⊔ C(t) either way. It saves the acquire after its monitor and join: the
   * released clock's cover is then t's own epoch (a contended lock() was a join more per call).
   */
  @DontInline // see the class comment
  void atomicAcquireRelease(ThreadShadow t, Object object) {
    Predictions predict = predictions();
    if (predict != null) {
      int tid = t.state(threads).tid();
      predict.acquire(tid, object);
      predict.release(tid, object);
    }
    ObjectShadow s = t.shadowOf(object, shadow);
    hb.acquireRelease(t.state(threads), s.atomic());
    t.noteAtomicReleaser(object, s);
  }

  /**
   * The volatile read's fast path (see {@code Hooks.volatileRead}): true if {@link #volatileRead} would change nothing
   * ({@code ThreadShadow.coversVolatileReadOf}). Not while a predictive analysis runs.
   */
  @ForceInline
  boolean coveredVolatileRead(ThreadShadow t, Object object, int fieldId) {
    return predict == null && t.coversVolatileReadOf(object, fieldId, shadow, threads);
  }

  /**
   * The atomic acquire's fast path (see {@code Hooks.atomicAfter}): true if {@link #atomicAcquire} would change nothing
   * ({@code ThreadShadow.coversAtomicAcquireOf}). Not while a predictive analysis runs.
   */
  @ForceInline
  boolean coveredAtomicAcquire(ThreadShadow t, Object object) {
    return predict == null && t.coversAtomicAcquireOf(object, shadow, threads);
  }

  /**
   * The trusted pointer read's fast path (see {@code Hooks.trustedReferenceRead}): true if {@link #trustedReferenceRead}
   * would change nothing — the holder's releaser field names {@code t}'s thread, or its slot holds no shadow of this
   * memory, or a shadow without an atomic clock, released on by this thread only, or whose cover {@code t}'s clock
   * already covers (the acquire's own first test); see {@code ThreadShadow.coversAtomicOf}. Not while a predictive
   * analysis runs (it sees every acquire); false for a class without a slot (the full path looks in the table).
   */
  @ForceInline
  boolean coveredTrustedRead(ThreadShadow t, Object holder) {
    return predict == null && t.coversAtomicOf(holder, shadow, threads);
  }

  /** Acquire the holder's atomic clock if it has one; never creates shadow state for the holder. */
  @ForceInline // see the class comment
  void trustedReferenceRead(ThreadShadow t, Object holder) {
    Predictions predict = predictions();
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
    Predictions predict = predictions();
    if (predict != null) {
      predict.acquireStatic(t.state(threads).tid(), fieldId);
    }
    hb.acquire(t.state(threads), shadow.staticSync(fieldId));
  }

  @DontInline // see the class comment
  void volatileWriteStatic(ThreadShadow t, int fieldId) {
    Predictions predict = predictions();
    if (predict != null) {
      predict.releaseStatic(t.state(threads).tid(), fieldId);
    }
    hb.release(t.state(threads), shadow.staticSync(fieldId));
  }

  void fork(ThreadShadow t, Thread child) {
    ThreadState childState = threads.stateOf(child);
    hb.rename(childState, child.getName());
    Predictions predict = wake(); // a start ends the wait of an analysis (see Waiting), whichever thread starts
    if (predict != null) {
      predict.fork(t.state(threads).tid(), childState.tid());
    }
    hb.fork(t.state(threads), childState);
  }

  void join(ThreadShadow t, Thread joined) {
    Predictions predict = predictions();
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
