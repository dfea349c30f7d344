package dev.racetriage.agent.runtime;

/**
 * The static methods instrumented code calls. Each one: returns at once when the agent is not running or the thread
 * is already inside the agent (the agent's own work, and JDK code it calls, must not produce events); otherwise marks
 * the thread busy, forwards to the {@link DetectRuntime}, and swallows and counts anything thrown — the program under
 * test never sees an exception from the agent.
 *
 * <p>The names and descriptors are bound by {@code dev.racetriage.agent.instrument.HookMethod}; a unit test checks
 * that both agree.
 */
public final class Hooks {
  /** Set once at start-up, after everything the hooks use is initialised; null means "not running". */
  private static DetectRuntime runtime;

  private Hooks() {
  }

  public static void install(DetectRuntime detectRuntime) {
    runtime = detectRuntime;
  }

  public static DetectRuntime installed() {
    return runtime;
  }

  // ---- accesses (called before the access; arrays with the index) ----

  public static void readField(Object object, int fieldId, int site) {
    DetectRuntime rt = runtime;
    if (rt == null || object == null) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (t.busy) {
      return;
    }
    t.busy = true;
    try {
      rt.readField(t, object, fieldId, site);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  public static void writeField(Object object, int fieldId, int site) {
    DetectRuntime rt = runtime;
    if (rt == null || object == null) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (t.busy) {
      return;
    }
    t.busy = true;
    try {
      rt.writeField(t, object, fieldId, site);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  public static void readStatic(int fieldId, int site) {
    DetectRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (t.busy) {
      return;
    }
    t.busy = true;
    try {
      rt.readStatic(t, fieldId, site);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  public static void writeStatic(int fieldId, int site) {
    DetectRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (t.busy) {
      return;
    }
    t.busy = true;
    try {
      rt.writeStatic(t, fieldId, site);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  public static void readElement(Object array, int index, int site) {
    DetectRuntime rt = runtime;
    if (rt == null || array == null) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (t.busy) {
      return;
    }
    t.busy = true;
    try {
      rt.readElement(t, array, index, site);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  public static void writeElement(Object array, int index, int site) {
    DetectRuntime rt = runtime;
    if (rt == null || array == null) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (t.busy) {
      return;
    }
    t.busy = true;
    try {
      rt.writeElement(t, array, index, site);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** An array-typed field was read or written: the array is named after it ({@code pkg.Cls.slots[]}). */
  public static void arrayInField(Object array, int fieldId) {
    DetectRuntime rt = runtime;
    if (rt == null || array == null) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (t.busy) {
      return;
    }
    t.busy = true;
    try {
      rt.noteArrayField(t, array, fieldId);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  // ---- synchronisation on an object: monitors, volatile fields, atomics, trusted JDK objects ----

  /** After a monitorenter, a volatile read, the "read" half of an atomic operation: ACQUIRE. */
  public static void acquire(Object object) {
    DetectRuntime rt = runtime;
    if (rt == null || object == null) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (t.busy) {
      return;
    }
    t.busy = true;
    try {
      rt.acquire(t, object);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** Before a monitorexit, a volatile write, the "write" half of an atomic operation: RELEASE. */
  public static void release(Object object) {
    DetectRuntime rt = runtime;
    if (rt == null || object == null) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (t.busy) {
      return;
    }
    t.busy = true;
    try {
      rt.release(t, object);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** After a read of a static volatile field. */
  public static void acquireStatic(int fieldId) {
    DetectRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (t.busy) {
      return;
    }
    t.busy = true;
    try {
      rt.acquireStatic(t, fieldId);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** Before a write of a static volatile field. */
  public static void releaseStatic(int fieldId) {
    DetectRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (t.busy) {
      return;
    }
    t.busy = true;
    try {
      rt.releaseStatic(t, fieldId);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /**
   * An atomic operation (VarHandle, Unsafe, field updater) about to run: {@code target} is its first argument (the
   * object or array it updates), or null for static-field handles, in which case the handle itself stands for the
   * field. {@code mode} says which halves apply ({@link #SYNC_ACQUIRE}, {@link #SYNC_RELEASE}, both).
   */
  public static void atomicBefore(Object handle, Object target, int mode) {
    if ((mode & SYNC_RELEASE) != 0) {
      release(target != null ? target : handle);
    }
  }

  /** The same atomic operation has returned. */
  public static void atomicAfter(Object handle, Object target, int mode) {
    if ((mode & SYNC_ACQUIRE) != 0) {
      acquire(target != null ? target : handle);
    }
  }

  public static final int SYNC_ACQUIRE = 1;
  public static final int SYNC_RELEASE = 2;

  // ---- Object.wait, threads ----

  public static void waitOn(Object monitor) throws InterruptedException {
    release(monitor);
    try {
      monitor.wait();
    } finally {
      acquire(monitor);
    }
  }

  public static void waitOn(Object monitor, long millis) throws InterruptedException {
    release(monitor);
    try {
      monitor.wait(millis);
    } finally {
      acquire(monitor);
    }
  }

  public static void waitOn(Object monitor, long millis, int nanos) throws InterruptedException {
    release(monitor);
    try {
      monitor.wait(millis, nanos);
    } finally {
      acquire(monitor);
    }
  }

  /** Called at the start of {@code Thread.start()}: FORK, before the child can run. */
  public static void threadStarting(Thread child) {
    DetectRuntime rt = runtime;
    if (rt == null || child == null) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (t.busy) {
      return;
    }
    t.busy = true;
    try {
      rt.fork(t, child);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** Called when {@code Thread.join(long)} returns normally: JOIN if the thread has terminated. */
  public static void joinReturned(Thread joined) {
    if (joined != null && !joined.isAlive()) {
      joinedTerminated(joined);
    }
  }

  /** Replaces {@code thread.isAlive()} in application code: a {@code false} is a JOIN (JRF Figure 1). */
  public static boolean isAlive(Thread thread) {
    boolean alive = thread.isAlive();
    if (!alive) {
      joinedTerminated(thread);
    }
    return alive;
  }

  private static void joinedTerminated(Thread joined) {
    DetectRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (t.busy) {
      return;
    }
    t.busy = true;
    try {
      rt.join(t, joined);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  // ---- class initialisation ----

  public static void clinitEnter() {
    DetectRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (t.busy) {
      return;
    }
    t.busy = true;
    try {
      rt.enterClinit(t);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  public static void clinitExit() {
    DetectRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (t.busy) {
      return;
    }
    t.busy = true;
    try {
      rt.exitClinit(t);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }
}
