package dev.racetriage.agent.runtime;

import dev.racetriage.agent.predict.WcpAnalysis;
import jdk.internal.vm.annotation.DontInline;

/**
 * Detect mode with {@code predict=true} (the default): the shadow state of the WCP analysis ({@link WcpAnalysis}) — its locks,
 * syncs and locations per program object, in a weak identity table of its own beside the happens-before shadow — and
 * the calls {@link DetectRuntime} makes into it for every event, on the event's thread. The analysis's monitor is the
 * trace order, so every event takes it: the option's cost (RESULTS.md). Arrays longer than {@link #MAX_ELEMENTS}
 * are left to happens-before (a location object per element), and their elements' accesses take neither the
 * monitor nor the budget. With a budget, {@link DetectRuntime} gives an analysis no event until a second thread takes
 * part (its {@code Waiting}).
 *
 * <p><b>Budget</b> ({@code predictEvents}; one analysis per test, see {@link DetectRuntime#testStarted}): the analysis
 * takes at most that many events (an element of a range counts as one), then stops for good: it calls {@link Stop#stopped} once, under its monitor, and every later call returns
 * at once. The analysis of a prefix of the trace is the analysis of a trace (WCP is online), so what it predicted
 * until then stands; happens-before detection goes on whole. {@link DetectRuntime} drops its reference in
 * {@code stopped}, so from then on an event costs it one read of a null field; a thread that read the reference just
 * before takes this monitor once more, sees the stop, and reads the null afterwards (the monitor orders it).
 *
 * <p>Every entry point is {@code @DontInline}: the hooks' C2 code is compiled while the analysis runs (it runs first
 * in every test), and with these calls inlined it carried the whole analysis for the rest of the run — twice the code,
 * and compile time the program's threads wait for (docs/architecture.md, "Predictive detection").
 */
final class Predictions {
  static final int MAX_ELEMENTS = 1 << 16;

  /** Told once, under the analysis's monitor, when the budget is spent. */
  interface Stop {
    void stopped(Predictions which, long events);
  }

  private final WcpAnalysis wcp;
  /** Events the analysis takes at most; 0: no limit. */
  private final long budget;
  private final Stop stop;
  /** Events taken so far (guarded by the monitor of {@link #wcp}). */
  private long events;
  private boolean stopped;
  private final WeakIdentityTable<Shadow> objects = new WeakIdentityTable<>();
  private WcpAnalysis.Location[] statics = new WcpAnalysis.Location[64];
  private WcpAnalysis.Sync[] staticSyncs = new WcpAnalysis.Sync[64];

  /** What the analysis keeps for one object: its monitor, its sync (volatiles, atomics), its fields or elements. */
  private static final class Shadow {
    WcpAnalysis.Lock lock;
    WcpAnalysis.Sync sync;
    int[] ids = new int[4];
    WcpAnalysis.Location[] fields = new WcpAnalysis.Location[4];
    int count;
    WcpAnalysis.Location[] elements;
  }

  private static final java.util.function.Function<Object, Shadow> NEW_SHADOW =
      new java.util.function.Function<>() { // not a lambda: see DetectRuntime's package contract
        @Override
        public Shadow apply(Object o) {
          return new Shadow();
        }
      };

  Predictions(WcpAnalysis.ThreadNames names, long budget, Stop stop) {
    this.wcp = new WcpAnalysis(names);
    this.budget = budget;
    this.stop = stop;
  }

  /**
   * Counts {@code n} events against the budget; false when the analysis has stopped or stops now (the caller then
   * drops the event). Called under the monitor of {@link #wcp}.
   */
  private boolean take(long n) {
    if (stopped) {
      return false;
    }
    if (budget > 0 && events + n > budget) {
      stopped = true;
      stop.stopped(this, events);
      return false;
    }
    events += n;
    return true;
  }

  /** Events analysed so far. */
  long events() {
    synchronized (wcp) {
      return events;
    }
  }

  /**
   * Replaced by a fresh analysis (a test started): takes no event from now on. Returns the events it took, or 0 if it
   * had stopped already (its {@link Stop} counted them).
   */
  long retire() {
    synchronized (wcp) {
      if (stopped) {
        return 0;
      }
      stopped = true;
      return events;
    }
  }

  private Shadow shadow(Object o) {
    return objects.getOrCreate(o, NEW_SHADOW);
  }

  // ---- accesses (each returns the prediction, or null) ----

  @DontInline // out of the hooks' compiled code: see the class comment
  WcpAnalysis.Prediction readField(int tid, Object o, int fieldId) {
    synchronized (wcp) {
      return take(1) ? wcp.read(tid, field(shadow(o), fieldId)) : null;
    }
  }

  @DontInline // out of the hooks' compiled code: see the class comment
  WcpAnalysis.Prediction writeField(int tid, Object o, int fieldId, int site, boolean clinit) {
    synchronized (wcp) {
      return take(1) ? wcp.write(tid, field(shadow(o), fieldId), site, clinit) : null;
    }
  }

  @DontInline // out of the hooks' compiled code: see the class comment
  WcpAnalysis.Prediction readStatic(int tid, int fieldId) {
    synchronized (wcp) {
      return take(1) ? wcp.read(tid, staticField(fieldId)) : null;
    }
  }

  @DontInline // out of the hooks' compiled code: see the class comment
  WcpAnalysis.Prediction writeStatic(int tid, int fieldId, int site, boolean clinit) {
    synchronized (wcp) {
      return take(1) ? wcp.write(tid, staticField(fieldId), site, clinit) : null;
    }
  }

  /** An element read, or null when the array is too long for the analysis or the index out of bounds. */
  @DontInline // out of the hooks' compiled code: see the class comment
  WcpAnalysis.Prediction readElement(int tid, Object array, int index) {
    if (untracked(array)) {
      return null;
    }
    synchronized (wcp) {
      WcpAnalysis.Location x = take(1) ? element(array, index) : null;
      return x == null ? null : wcp.read(tid, x);
    }
  }

  @DontInline // out of the hooks' compiled code: see the class comment
  WcpAnalysis.Prediction writeElement(int tid, Object array, int index, int site, boolean clinit) {
    if (untracked(array)) {
      return null;
    }
    synchronized (wcp) {
      WcpAnalysis.Location x = take(1) ? element(array, index) : null;
      return x == null ? null : wcp.write(tid, x, site, clinit);
    }
  }

  /**
   * An array too long for the analysis: its element accesses neither take the monitor nor count against the budget
   * (a cipher's megabyte buffers, read by every worker, spent the whole budget contending for the monitor and
   * analysed nothing).
   */
  private static boolean untracked(Object array) {
    return java.lang.reflect.Array.getLength(array) > MAX_ELEMENTS;
  }

  /** Receives the predictions of a range, with the element index each is about. */
  interface Found {
    void at(int index, WcpAnalysis.Prediction p);
  }

  /**
   * A hoisted loop's or a bulk call's elements {@code from, from + step, …} below {@code to}, read or written: one
   * monitor and one table lookup for the range (element by element, the hook cost a monitor and a lookup each).
   */
  @DontInline // out of the hooks' compiled code: see the class comment
  void range(int tid, Object array, int from, int to, int step, int site, boolean write, boolean clinit,
             Found found) {
    if (untracked(array)) {
      return;
    }
    int length = java.lang.reflect.Array.getLength(array);
    int end = Math.min(to, length);
    synchronized (wcp) {
      if (!take(end > from ? (end - 1 - from) / step + 1 : 0)) {
        return;
      }
      Shadow s = shadow(array);
      if (s.elements == null) {
        s.elements = new WcpAnalysis.Location[length];
      }
      WcpAnalysis.Location[] elements = s.elements;
      for (int i = from; i < end; i += step) {
        if (i < 0) {
          continue;
        }
        WcpAnalysis.Location x = elements[i];
        if (x == null) {
          x = new WcpAnalysis.Location();
          elements[i] = x;
        }
        WcpAnalysis.Prediction p = write ? wcp.write(tid, x, site, clinit) : wcp.read(tid, x);
        if (p != null) {
          found.at(i, p);
        }
      }
    }
  }

  private static WcpAnalysis.Location field(Shadow s, int fieldId) {
    for (int i = 0; i < s.count; i++) {
      if (s.ids[i] == fieldId) {
        return s.fields[i];
      }
    }
    if (s.count == s.ids.length) {
      s.ids = java.util.Arrays.copyOf(s.ids, s.count * 2);
      s.fields = java.util.Arrays.copyOf(s.fields, s.count * 2);
    }
    WcpAnalysis.Location x = new WcpAnalysis.Location();
    s.ids[s.count] = fieldId;
    s.fields[s.count++] = x;
    return x;
  }

  private WcpAnalysis.Location staticField(int fieldId) {
    if (fieldId >= statics.length) {
      statics = java.util.Arrays.copyOf(statics, Math.max(fieldId + 1, statics.length * 2));
    }
    WcpAnalysis.Location x = statics[fieldId];
    if (x == null) {
      x = new WcpAnalysis.Location();
      statics[fieldId] = x;
    }
    return x;
  }

  private WcpAnalysis.Location element(Object array, int index) {
    int length = java.lang.reflect.Array.getLength(array);
    if (length > MAX_ELEMENTS || index < 0 || index >= length) {
      return null;
    }
    Shadow s = shadow(array);
    if (s.elements == null) {
      s.elements = new WcpAnalysis.Location[length];
    }
    WcpAnalysis.Location x = s.elements[index];
    if (x == null) {
      x = new WcpAnalysis.Location();
      s.elements[index] = x;
    }
    return x;
  }

  // ---- synchronisation ----

  @DontInline // out of the hooks' compiled code: see the class comment
  void monitorEnter(int tid, Object monitor, boolean transparent) {
    synchronized (wcp) {
      if (take(1)) {
        wcp.acquire(tid, lock(monitor), transparent);
      }
    }
  }

  @DontInline // out of the hooks' compiled code: see the class comment
  void monitorExit(int tid, Object monitor) {
    synchronized (wcp) {
      if (take(1)) {
        wcp.release(tid, lock(monitor));
      }
    }
  }

  private WcpAnalysis.Lock lock(Object monitor) {
    Shadow s = shadow(monitor);
    if (s.lock == null) {
      s.lock = new WcpAnalysis.Lock("the monitor of " + monitor.getClass().getName() + "@"
          + Integer.toHexString(System.identityHashCode(monitor)));
    }
    return s.lock;
  }

  /** A volatile read, an atomic operation's acquire half, a trusted pointer read: a hard acquire of the object. */
  @DontInline // out of the hooks' compiled code: see the class comment
  void acquire(int tid, Object o) {
    synchronized (wcp) {
      Shadow s = take(1) ? shadow(o) : null;
      if (s != null && s.sync != null) { // never released: nothing to give
        wcp.syncAcquire(tid, s.sync);
      }
    }
  }

  /** The same for an object the analysis may not know yet, creating nothing (a trusted pointer read). */
  @DontInline // out of the hooks' compiled code: see the class comment
  void peekAcquire(int tid, Object o) {
    synchronized (wcp) {
      Shadow s = take(1) ? objects.get(o) : null;
      if (s != null && s.sync != null) {
        wcp.syncAcquire(tid, s.sync);
      }
    }
  }

  /** A volatile write, an atomic operation's release half. */
  @DontInline // out of the hooks' compiled code: see the class comment
  void release(int tid, Object o) {
    synchronized (wcp) {
      if (!take(1)) {
        return;
      }
      Shadow s = shadow(o);
      if (s.sync == null) {
        s.sync = new WcpAnalysis.Sync();
      }
      wcp.syncRelease(tid, s.sync);
    }
  }

  @DontInline // out of the hooks' compiled code: see the class comment
  void acquireStatic(int tid, int fieldId) {
    synchronized (wcp) {
      if (take(1)) {
        wcp.syncAcquire(tid, staticSync(fieldId));
      }
    }
  }

  @DontInline // out of the hooks' compiled code: see the class comment
  void releaseStatic(int tid, int fieldId) {
    synchronized (wcp) {
      if (take(1)) {
        wcp.syncRelease(tid, staticSync(fieldId));
      }
    }
  }

  private WcpAnalysis.Sync staticSync(int fieldId) {
    if (fieldId >= staticSyncs.length) {
      staticSyncs = java.util.Arrays.copyOf(staticSyncs, Math.max(fieldId + 1, staticSyncs.length * 2));
    }
    WcpAnalysis.Sync s = staticSyncs[fieldId];
    if (s == null) {
      s = new WcpAnalysis.Sync();
      staticSyncs[fieldId] = s;
    }
    return s;
  }

  @DontInline // out of the hooks' compiled code: see the class comment
  void fork(int parent, int child) {
    synchronized (wcp) {
      if (take(1)) {
        wcp.fork(parent, child);
      }
    }
  }

  @DontInline // out of the hooks' compiled code: see the class comment
  void join(int joiner, int joined) {
    synchronized (wcp) {
      if (take(1)) {
        wcp.join(joiner, joined);
      }
    }
  }
}
