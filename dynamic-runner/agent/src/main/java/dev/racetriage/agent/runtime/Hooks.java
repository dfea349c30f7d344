package dev.racetriage.agent.runtime;

import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;

/**
 * The static methods instrumented code calls. Each one: returns at once when the agent is not running or the thread
 * is already inside the agent (the agent's own work, and JDK code it calls, must not produce events); otherwise marks
 * the thread busy, forwards to the {@link DetectRuntime}, and swallows and counts anything thrown — the program under
 * test never sees an exception from the agent. The guard is spelled out in every hook rather than factored into a
 * lambda.
 *
 * <p><b>Not inlined.</b> Every hook is {@code @DontInline} (honoured because the agent's classes are loaded by the boot
 * loader; ignored, harmlessly, elsewhere). Inlined, a hook drags its whole runtime path into every instrumented
 * method the JIT compiles — C2 then spent seconds of a short run compiling the same agent code into hundreds of
 * callers. Called, each hook is compiled once; a call costs a few nanoseconds. The slow paths behind the hooks
 * (table inserts, race reports) are {@code @DontInline} for the same reason. The instance field read hook's body is
 * only the cover check — the runtime installed, the thread's shadow, the object's shadow found by the field's cached
 * slot offset, its write summary one of this thread's own epochs or covered by its clock: loads and compares, which
 * settle most reads (a getter of an object its thread built, a read-only object shared after it was built) — and it
 * calls the out-of-line {@code checkedRead} for anything else: the gain is the cheaper body (no busy flag, no
 * try/finally, no second lookup). Inlining it did not pay: forced, C1 compiled a copy per read into every instrumented
 * method (one initialiser bailed out of C1: "out of virtual registers"); left to the JIT, C2 inlined it into every hot
 * caller and compiled a third more code, which the short Java Grande programs paid in CPU, while HdrHistogram's
 * getters gained nothing measurable over the call. The instance field write hook's body is likewise only the
 * owner's rewrite check — a write of a field the thread already recorded in its current epoch changes nothing but a
 * site ({@code ObjectShadow.rewrite}) — and calls the out-of-line {@code checkedWrite} for anything else.
 *
 * <p>The names and descriptors are bound by {@code dev.racetriage.agent.instrument.HookMethod}; a unit test checks
 * that both agree.
 */
public final class Hooks {
  public static final int SYNC_ACQUIRE = 1;
  public static final int SYNC_RELEASE = 2;

  /** Set once at start-up, after everything the hooks use is initialised; null means "not running". */
  private static DetectRuntime runtime;

  private Hooks() {
  }

  @DontInline
  public static void install(DetectRuntime detectRuntime) {
    runtime = detectRuntime;
    ownedArrays = newOwnedArrays(ownedArrays.length); // no entry of an earlier runtime's memory is kept
    ownedContended = new boolean[ownedContended.length]; // a new run (tests install several runtimes in one JVM)
    ownedReadsFor(detectRuntime);
  }

  /**
   * Whether the owned-read guard may settle reads ({@link #ownedShadow}): while a runtime is installed and no predictive
   * analysis runs (it sees every event). Volatile, so a guard in a hot loop reads it every time.
   */
  private static volatile boolean ownedReads;
  /** {@code -Dracetriage.agent.ownedReads=false} turns the guard off (every read calls its hook), for measurements. */
  private static final boolean OWNED_READS_ALLOWED =
      !"false".equals(System.getProperty("racetriage.agent.ownedReads"));

  /** Called by {@code detectRuntime} when its predictive analysis starts or stops, and at installation. */
  static void ownedReadsFor(DetectRuntime detectRuntime) {
    boolean guards = detectRuntime != null && runtime == detectRuntime && !detectRuntime.seesEveryRead();
    ownedReads = OWNED_READS_ALLOWED && guards;
    ownedElements = OWNED_ELEMENTS_ALLOWED && guards ? detectRuntime.shadowMemory() : null;
    ownedWrites = OWNED_WRITES_ALLOWED && guards ? detectRuntime.shadowMemory() : null;
  }

  /**
   * The shadow memory whose stamps the owned-write guard may trust ({@link #ownedRewrite}), or null while it may trust
   * none: no runtime installed, or a predictive analysis running (it sees every event). Volatile, as
   * {@link #ownedReads}.
   */
  private static volatile ShadowMemory ownedWrites;
  /** {@code -Dracetriage.agent.ownedWrites=false} turns the owned-write guard off, for measurements. */
  private static final boolean OWNED_WRITES_ALLOWED =
      !"false".equals(System.getProperty("racetriage.agent.ownedWrites"));

  /**
   * The owned-write guard, inlined into instrumented code before the hook of a write the instrumenter numbered a
   * guarded site ({@code GuardedWrites}: a class's own field written in its own non-constructor code), given the
   * receiver's shadow slot, the method's thread slot (null until a hook filled it) and the site's bit: the calling
   * thread's shadow if the hook can be skipped — the shadow is this run's, its stamp holds the site's bit, its write
   * summary is the thread's current epoch, and the thread is its writer: the field's compact record is this very
   * write's epoch and site, so the write hook would change nothing ({@code ObjectShadow.rewrite}'s compact case) — or
   * null: call the hook ({@link #writeFieldGuarded}). The thread's shadow, returned, fills the method's thread slot.
   */
  @ForceInline
  public static ThreadShadow ownedRewrite(Object slot, ThreadShadow thread, long bit) {
    if (slot instanceof ObjectShadow s && s.anyStamped(bit) && s.memory == ownedWrites) {
      ThreadShadow t = thread != null ? thread : ThreadShadow.current();
      if (s.stamped(t.guardEpoch())) {
        return t;
      }
    }
    return null;
  }

  /**
   * The owned-read guard, inlined into instrumented code before an instance field read's hook (see
   * EventInstrumenter), given the value of the receiver's shadow slot (read by the instrumented class's own
   * {@code getfield}): true if the hook can be skipped because the calling thread made every write recorded in that
   * shadow — the read cannot race with a write, and {@link #readField} would record nothing (its cover check's first
   * case). No thread shadow, no call. False while the guard is off, or when the slot holds no shadow or another
   * thread's: the hook runs. A shadow of an earlier memory counts too: its writes are this thread's, and under the
   * current memory the object has none recorded (another thread's write would have installed a new shadow) — a read
   * is covered either way.
   */
  @ForceInline
  public static boolean ownedShadow(Object slot) {
    return ownedReads && slot instanceof ObjectShadow s && s.writtenOnlyByCurrentThread();
  }

  /**
   * The owned-element guard's memory: the shadow memory whose array shadows {@link #ownedElement} may trust, or null
   * while it may trust none (no runtime installed, or a predictive analysis running: it sees every event). Volatile,
   * as {@link #ownedReads}.
   */
  private static volatile ShadowMemory ownedElements;
  /** {@code -Dracetriage.agent.ownedElements=false} turns the owned-element guard off, for measurements. */
  private static final boolean OWNED_ELEMENTS_ALLOWED =
      !"false".equals(System.getProperty("racetriage.agent.ownedElements"));
  /**
   * The owned-element guard's cache, indexed by guard id (one per guarded element load instruction, numbered when its
   * class is defined: {@code instrument.IdSymbol#guard}): the weak-table entry of the last array that instruction's
   * hook found written only by the reading thread, or null (none yet, or the load is contended:
   * {@link #ownedContended}). Written racily by the hooks' slow path ({@link #noteOwnedArray}) with plain stores; an
   * entry's array and shadow are set by its constructor, so a reader sees a whole entry or a stale one (a miss, or the
   * referent not yet visible: a miss too). A grown array is a copy: a store into the old one is lost, a miss (or a
   * lost contended mark: the load is marked again at its next miss). Dropped at each test's start.
   */
  private static WeakIdentityTable.Entry<ObjectShadow>[] ownedArrays = newOwnedArrays(1024);
  /**
   * Per guard id, true once the load is contended ({@link #noteOwnedArray}): no entry is cached there again in this
   * run, and the load's call site no longer guards. Kept apart from {@link #ownedArrays}, whose slot is then null, so
   * that a guard not yet recompiled fails at its first load; only the hook reads this.
   */
  private static boolean[] ownedContended = new boolean[1024];

  @SuppressWarnings("unchecked")
  private static WeakIdentityTable.Entry<ObjectShadow>[] newOwnedArrays(int length) {
    return new WeakIdentityTable.Entry[length];
  }

  /**
   * The owned-element guard, inlined into instrumented code after an element load, given the array and the load's
   * guard id: true if the element read hook can be skipped because the array's shadow, cached for this instruction,
   * is this run's and every write recorded in it is the calling thread's (its {@code writer}), or none is — exactly
   * the element read's cover check's first cases, in which {@link #readElement} records nothing. No thread shadow, no
   * call: a one-line getter over a packed array (zxing's {@code BitMatrix.get}, HdrHistogram's counts) costs a few
   * loads per read. False while the guard is off, on a cache miss, or when another thread wrote the array: the hook
   * runs ({@link #readElement}), and fills the cache.
   */
  @ForceInline
  public static boolean ownedElement(Object array, int guard) {
    WeakIdentityTable.Entry<ObjectShadow>[] cache = ownedArrays;
    if (guard >= 0 && guard < cache.length) {
      WeakIdentityTable.Entry<ObjectShadow> e = cache[guard];
      if (e != null && e.refersTo(array)) {
        ObjectShadow s = e.value;
        return s.memory == ownedElements && s.ownedOrUnwrittenByCurrentThread();
      }
    }
    return false;
  }

  /**
   * {@link #readElement}, for a load with an owned-element guard ({@link #ownedElement}) that did not settle it: the
   * same check, then the array's entry cached for the guard if the calling thread owns the array.
   */
  @DontInline
  public static ThreadShadow readElement(Object array, int index, int site, int guard, ThreadShadow thread) {
    DetectRuntime rt = runtime;
    if (rt == null || array == null) {
      return thread;
    }
    ThreadShadow t = thread != null ? thread : ThreadShadow.current();
    if (t.busy) {
      return t;
    }
    checkElementRead(rt, t, array, index, site);
    ShadowMemory memory = ownedElements;
    if (memory != null) {
      noteOwnedArray(t, array, guard, memory);
    }
    return t;
  }

  /**
   * Caches, for guard {@code guard}, the entry of {@code array} if the calling thread owns it (or nobody wrote it):
   * found in the thread's own caches, where the read that just ran left it. An entry of another array is replaced
   * unless a live thread other than this one owns that array: the guard is then marked contended, so that
   * threads reading their own arrays at one instruction (a kernel's workers) do not take turns storing into the
   * shared cache. An entry of a thread that ended (an earlier test's) is replaced. A miss on the cached array itself
   * (another thread wrote it, or the caller reads an array another thread owns) marks the guard contended too: a load
   * that reads shared arrays would otherwise pay the guard's loads before every hook (the Java Grande crypt's
   * workers, 50 % slower); its call site is then re-targeted to a constant false ({@link #ownedElementSite}). The
   * marks last for the run; the entries are dropped at each test's start ({@link #testStarted}).
   */
  private static void noteOwnedArray(ThreadShadow t, Object array, int guard, ShadowMemory memory) {
    boolean[] contended = ownedContended;
    if (guard < 0 || guard < contended.length && contended[guard]) {
      return;
    }
    WeakIdentityTable.Entry<ObjectShadow>[] cache = ownedArrays;
    if (guard >= cache.length || guard >= contended.length) {
      if (guard >= 1 << 24) {
        return;
      }
      int length = Math.max(guard + 1, 2 * Math.max(cache.length, contended.length));
      ownedContended = contended = java.util.Arrays.copyOf(contended, length);
      ownedArrays = cache = java.util.Arrays.copyOf(cache, length);
    }
    WeakIdentityTable.Entry<ObjectShadow> old = cache[guard];
    if (old != null && old.refersTo(array) && old.value.memory == memory) {
      contend(cache, contended, guard, t); // the guard failed on its own array: another thread wrote it, or this one
      return;                           // reads another's — a shared array: the guard would only add loads
    }
    WeakIdentityTable.Entry<ObjectShadow> e = t.knownEntry(array, memory);
    if (e == null || !e.value.ownedOrUnwrittenByCurrentThread()) {
      return;
    }
    if (old != null && !old.refersTo(null) && old.value.memory == memory) {
      Thread owner = old.value.writerThread();
      if (owner != null && owner != Thread.currentThread() && owner.isAlive()) {
        contend(cache, contended, guard, t);
        return;
      }
    }
    cache[guard] = e;
  }

  private static void contend(WeakIdentityTable.Entry<ObjectShadow>[] cache, boolean[] contended, int guard,
                              ThreadShadow t) {
    contended[guard] = true;
    cache[guard] = null;
    contendClass(guard, t);
  }

  /**
   * The owned-element write guard, inlined into instrumented code before an element store's hook, given the array, the
   * index, the store's site and the method's thread slot (null until a hook filled it): the calling thread's shadow if
   * the store was an owner's write and is now recorded — the array is one of the thread's last two written ones, the
   * thread is its writer, the write summary is the thread's current epoch and the element's record is at hand: it is
   * set to this write's epoch and site with two plain stores ({@code ThreadShadow.ownsElementWrite}), exactly what the
   * write hook would do — or null: call the hook ({@link #writeElement(Object, int, int, int, ThreadShadow)}). The
   * shadow, returned, fills the thread slot. A lambda's {@code total[0] += n} on a one-element array, or a setter's
   * store into a packed row (the guard is only at stores outside loops), then costs a few loads and two stores, no
   * call. Off while a predictive analysis runs ({@link #ownedElements} null: it sees every event).
   */
  @ForceInline
  public static ThreadShadow ownedElementWrite(Object array, int index, int site, ThreadShadow thread) {
    ShadowMemory memory = ownedElements;
    if (memory != null && array != null) {
      ThreadShadow t = thread != null ? thread : ThreadShadow.current();
      if (!t.busy && t.ownsElementWrite(array, index, site, memory)) {
        return t;
      }
    }
    return null;
  }

  /**
   * The repeated-write guard, inlined into instrumented code before the hook of an element store in a loop (see
   * EventInstrumenter), given the array, the index, the store's site and the method's thread slot: true if the hook
   * can be skipped because the thread's last recorded element write was this very element from this site in its
   * current epoch ({@code ThreadShadow.repeats}) — a pixel loop's {@code counters[position]++} over a run of pixels of
   * one colour. Off while a predictive analysis runs ({@link #ownedElements} null: it sees every event).
   */
  @ForceInline
  public static boolean repeatedElementWrite(Object array, int index, int site, ThreadShadow thread) {
    return REPEATED_WRITES_ALLOWED && thread != null && thread.repeats(array, index, site)
        && thread.repeatedIn(ownedElements); // the volatile load only once the write matched
  }

  /** {@code -Dracetriage.agent.repeatedWrites=false} turns the repeated-write guard off, for measurements. */
  private static final boolean REPEATED_WRITES_ALLOWED =
      !"false".equals(System.getProperty("racetriage.agent.repeatedWrites"));

  /**
   * {@link #writeElement(Object, int, int, ThreadShadow)}, for a store with an owned-element write guard
   * ({@link #ownedElementWrite}) that did not settle it: the same write, then, if it took the full write and the
   * array is not the calling thread's own after it (another thread wrote it: a shared array), the store's class is
   * contended — every guard site of the class is re-targeted to a constant answer ({@link ClassGuards}), so that a
   * kernel's stores into shared arrays pay nothing for the guards after that.
   */
  @DontInline
  public static ThreadShadow writeElement(Object array, int index, int site, int guard, ThreadShadow thread) {
    DetectRuntime rt = runtime;
    if (rt == null || array == null) {
      return thread;
    }
    ThreadShadow t = thread != null ? thread : ThreadShadow.current();
    ShadowMemory memory;
    if (fullElementWrite(rt, t, array, index, site) && (memory = ownedElements) != null) {
      WeakIdentityTable.Entry<ObjectShadow> e = t.knownWrittenEntry(array, memory);
      if (e != null && !e.value.writtenOnlyByCurrentThread()) {
        contendClass(guard, t);
      }
    }
    return t;
  }

  /** Re-targets every owned-element guard site of guard {@code guard}'s class (see {@link ClassGuards}). */
  private static void contendClass(int guard, ThreadShadow t) {
    ClassGuards[] owners = guardOwners;
    ClassGuards owner = guard >= 0 && guard < owners.length ? owners[guard] : null;
    if (owner != null && !owner.contended) {
      t.busy = true;
      try {
        owner.contend();
      } catch (Throwable e) {
        // the guards stay: they only cost their loads
      } finally {
        t.busy = false;
      }
    }
  }

  /**
   * The owned-element guards of one class: their call sites, and whether one of them was contended — then every site
   * of the class is re-targeted to a constant false at once, and sites linked later are born so: a kernel's hot method
   * with thirty guarded loads is recompiled once, not once per load as each gets contended in turn.
   */
  private static final class ClassGuards {
    volatile boolean contended;
    private final java.util.ArrayList<java.lang.invoke.MutableCallSite> sites = new java.util.ArrayList<>();

    synchronized java.lang.invoke.CallSite link(java.lang.invoke.MethodHandle target,
                                                java.lang.invoke.MethodType type) {
      if (contended) {
        return new java.lang.invoke.ConstantCallSite(never(type));
      }
      java.lang.invoke.MutableCallSite site = new java.lang.invoke.MutableCallSite(target);
      sites.add(site);
      return site;
    }

    synchronized void contend() {
      if (contended) {
        return;
      }
      contended = true;
      for (java.lang.invoke.MutableCallSite site : sites) {
        site.setTarget(never(site.type())); // the JIT recompiles their methods without them
      }
      sites.clear();
    }
  }

  /** The owned-element guards' classes ({@link ClassGuards}), by guard id; null where no site was linked. */
  private static ClassGuards[] guardOwners = new ClassGuards[1024];

  /** Per class with a linked owned-element guard, its {@link ClassGuards}. */
  private static final ClassValue<ClassGuards> CLASS_GUARDS = new ClassValue<>() {
    @Override
    protected ClassGuards computeValue(Class<?> type) {
      return new ClassGuards();
    }
  };

  /** The guards' method handles, made at the first guard's linkage (in the program's code, not the transformer's). */
  private static final class GuardHandles {
    static final java.lang.invoke.MethodType READ = java.lang.invoke.MethodType.methodType(boolean.class,
        Object.class, int.class);
    static final java.lang.invoke.MethodType WRITE = java.lang.invoke.MethodType.methodType(ThreadShadow.class,
        Object.class, int.class, int.class, ThreadShadow.class);
    static final java.lang.invoke.MethodHandle OWNED = find("ownedElement", READ);
    static final java.lang.invoke.MethodHandle NEVER = find("neverOwned", READ);
    static final java.lang.invoke.MethodHandle OWNED_WRITE = find("ownedElementWrite", WRITE);
    static final java.lang.invoke.MethodHandle NEVER_WRITE = find("neverOwnedWrite", WRITE);

    /** A direct handle, shared by every site: nothing is bound per site. */
    private static java.lang.invoke.MethodHandle find(String name, java.lang.invoke.MethodType type) {
      try {
        return java.lang.invoke.MethodHandles.lookup().findStatic(Hooks.class, name, type);
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        return null;
      }
    }
  }

  /** A contended read guard's target: never settles a read. */
  public static boolean neverOwned(Object array, int guard) {
    return false;
  }

  /** A contended write guard's target: never settles a write. */
  public static ThreadShadow neverOwnedWrite(Object array, int index, int site, ThreadShadow thread) {
    return null;
  }

  /**
   * The bootstrap of an owned-element guard ({@code instrument.EventInstrumenter#guardedElementRead}), called by the
   * JVM at the load's first run: a call site linked to a direct handle of {@link #ownedElement} (the load passes its
   * guard id as the second argument; the static argument {@code guard}, the same id, registers the site with its
   * class), which the JIT inlines. When the load turns out to read arrays its readers do not own
   * ({@link #noteOwnedArray} marks it contended), its site and every other site of its class are re-targeted to a
   * constant false ({@link ClassGuards}), and the JIT recompiles their methods without the guards: a shared array's
   * reads (a kernel's workers) pay nothing for them after that. Never throws: a site it could not link is constant
   * false.
   */
  public static java.lang.invoke.CallSite ownedElementSite(java.lang.invoke.MethodHandles.Lookup caller, String name,
                                                          java.lang.invoke.MethodType type, int guard) {
    return guardSite(caller, type, guard, GuardHandles.OWNED);
  }

  /**
   * The bootstrap of an owned-element write guard ({@code instrument.EventInstrumenter#guardedElementWrite}): as
   * {@link #ownedElementSite}, linked to {@link #ownedElementWrite}; its class's sites, reads' and writes' alike, are
   * re-targeted together when one of them is contended.
   */
  public static java.lang.invoke.CallSite ownedElementWriteSite(java.lang.invoke.MethodHandles.Lookup caller,
                                                               String name, java.lang.invoke.MethodType type,
                                                               int guard) {
    return guardSite(caller, type, guard, GuardHandles.OWNED_WRITE);
  }

  private static java.lang.invoke.CallSite guardSite(java.lang.invoke.MethodHandles.Lookup caller,
                                                     java.lang.invoke.MethodType type, int guard,
                                                     java.lang.invoke.MethodHandle owned) {
    try {
      if (owned != null && guard >= 0 && guard < 1 << 24) {
        ClassGuards owner = CLASS_GUARDS.get(caller.lookupClass());
        synchronized (ClassGuards.class) {
          ClassGuards[] owners = guardOwners;
          if (guard >= owners.length) {
            owners = java.util.Arrays.copyOf(owners, Math.max(guard + 1, 2 * owners.length));
          }
          owners[guard] = owner;
          guardOwners = owners;
        }
        return owner.link(owned.asType(type), type);
      }
    } catch (RuntimeException | LinkageError e) {
      // a constant false below
    }
    return new java.lang.invoke.ConstantCallSite(never(type));
  }

  /** A handle of {@code type} that always answers false (a read guard) or null (a write guard). */
  private static java.lang.invoke.MethodHandle never(java.lang.invoke.MethodType type) {
    java.lang.invoke.MethodHandle never = type.returnType() == boolean.class ? GuardHandles.NEVER
        : GuardHandles.NEVER_WRITE;
    if (never != null && never.type().equals(type)) {
      return never;
    }
    Class<?> result = type.returnType();
    return java.lang.invoke.MethodHandles.dropArguments(result == boolean.class
        ? java.lang.invoke.MethodHandles.constant(boolean.class, false)
        : java.lang.invoke.MethodHandles.zero(result), 0, type.parameterList());
  }

  /** True if {@code detectRuntime} is the installed runtime. */
  static boolean installed(DetectRuntime detectRuntime) {
    return runtime == detectRuntime;
  }

  /**
   * A test starts ({@code DetectRuntime.testStarted}): the owned-element guards' cache starts afresh, so that no entry
   * keeps an earlier test's dead array's shadow (the contended marks stay: their sites no longer guard).
   */
  static void testStarted() {
    ownedArrays = newOwnedArrays(ownedArrays.length);
  }

  /**
   * At the start of a class load or a linkage upcall ({@code instrument.QuietLinking}): turns the calling
   * thread's hooks off (its busy flag, as while the agent works on it). Returns the thread's shadow if it did, for
   * {@link #quietExit} to turn them back on without looking the thread up again; null when no runtime is installed,
   * the flag was set already (a load inside a load or a linkage, or the agent's own work), or anything failed — a
   * class load never fails because of the agent.
   */
  @DontInline
  public static Object quietEnter() {
    try {
      if (runtime == null) {
        return null;
      }
      ThreadShadow t = ThreadShadow.current();
      if (t.busy) {
        return null;
      }
      t.busy = true;
      return t;
    } catch (Throwable e) {
      return null;
    }
  }

  /** At the end of that load or linkage, however it ends: the hooks back on if {@link #quietEnter} turned them off. */
  @DontInline
  public static void quietExit(Object entered) {
    if (entered instanceof ThreadShadow t) {
      t.busy = false;
    }
  }

  public static DetectRuntime installed() {
    return runtime;
  }

  /** The calling thread's shadow marked busy, or null if it already is (the agent is working on this thread). */
  static ThreadShadow enter() {
    ThreadShadow t = ThreadShadow.current();
    if (t.busy) {
      return null;
    }
    t.busy = true;
    return t;
  }

  /**
   * After a read of a non-final, non-volatile instance field (checked after the load: see EventInstrumenter).
   * Without the thread slot (tests, the warm-up).
   */
  @DontInline
  public static void readField(Object object, int fieldId, int site) {
    readField(object, fieldId, site, null);
  }

  /**
   * After a read of a non-final, non-volatile instance field (see EventInstrumenter: checked after the load).
   * Instrumented methods keep the calling thread's shadow in a local: {@code thread} is that local (null
   * until the method's first hooked access) and the result is stored back into it, so a method pays for the
   * {@code ThreadLocal} lookup once per invocation, not once per access (all access hooks work so).
   */
  @DontInline // the cover check is its body: see the class comment
  public static ThreadShadow readField(Object object, int fieldId, int site, ThreadShadow thread) {
    DetectRuntime rt = runtime;
    if (rt == null || object == null) {
      return thread;
    }
    ThreadShadow t = thread != null ? thread : ThreadShadow.current();
    if (t.busy || rt.coveredRead(t, object, fieldId)) {
      return t;
    }
    return checkedRead(rt, t, object, fieldId, site);
  }

  /**
   * After the last of two or three reads of fields of {@code object} on one line with nothing between that could
   * synchronise (instrument.RedundantChecks): each field's read, checked as {@link #readField} would, with the one
   * site; {@code field3} is -1 for a pair. One call instead of two or three.
   */
  @DontInline
  public static ThreadShadow readFields(Object object, int field1, int field2, int field3, int site,
                                        ThreadShadow thread) {
    DetectRuntime rt = runtime;
    if (rt == null || object == null) {
      return thread;
    }
    ThreadShadow t = thread != null ? thread : ThreadShadow.current();
    if (t.busy) {
      return t;
    }
    if (rt.coveredRead(t, object, field1)) {
      return t; // the cover check is the object's (every write to it covered): it settles the group's other reads too
    }
    checkedRead(rt, t, object, field1, site);
    if (!rt.coveredRead(t, object, field2)) {
      checkedRead(rt, t, object, field2, site);
    }
    if (field3 >= 0 && !rt.coveredRead(t, object, field3)) {
      checkedRead(rt, t, object, field3, site);
    }
    return t;
  }

  /** A field read the cover check did not settle: the runtime's whole read path, out of line. */
  @DontInline
  private static ThreadShadow checkedRead(DetectRuntime rt, ThreadShadow t, Object object, int fieldId, int site) {
    t.busy = true;
    try {
      rt.readField(t, object, fieldId, site);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
    return t;
  }

  /** Before a write of a non-final, non-volatile instance field. Without the thread slot (tests, the warm-up). */
  @DontInline
  public static void writeField(Object object, int fieldId, int site) {
    writeField(object, fieldId, site, null);
  }

  /**
   * Before a write of a non-final, non-volatile instance field.
   * {@code thread}: the method's thread slot, see {@link #readField(Object, int, int, ThreadShadow)}.
   */
  @DontInline // the owner's rewrite check is its body: see the class comment
  public static ThreadShadow writeField(Object object, int fieldId, int site, ThreadShadow thread) {
    DetectRuntime rt = runtime;
    if (rt == null || object == null) {
      return thread;
    }
    ThreadShadow t = thread != null ? thread : ThreadShadow.current();
    if (t.busy || rt.recordedWrite(t, object, fieldId, site)) {
      return t;
    }
    return checkedWrite(rt, t, object, fieldId, site, 0L, 0L);
  }

  /**
   * Before a non-volatile instance field write from a guarded site whose owned-write guard ({@link #ownedRewrite}) did
   * not settle it: the write as {@link #writeField(Object, int, int, ThreadShadow)}'s, then the site's bit
   * {@code bit} in the object's stamp if the records now hold this write ({@code DetectRuntime.writeField});
   * {@code mask}: the bits of every guarded site of the same field.
   */
  @DontInline
  public static ThreadShadow writeFieldGuarded(Object object, int fieldId, int site, long bit, long mask,
                                               ThreadShadow thread) {
    DetectRuntime rt = runtime;
    if (rt == null || object == null) {
      return thread;
    }
    ThreadShadow t = thread != null ? thread : ThreadShadow.current();
    if (t.busy) {
      return t;
    }
    // the rewrite check, as writeField's, stamping the site when it settles the write (agent objects only: no busy
    // flag needed); no stamp while the guard may trust none
    long stamp = ownedWrites != null ? bit : 0L;
    if (rt.recordedWrite(t, object, fieldId, site, ~mask, stamp)) {
      return t;
    }
    return checkedWrite(rt, t, object, fieldId, site, ~mask, stamp);
  }

  /**
   * A field write the rewrite check did not settle: the runtime's whole write path, out of line ({@code keep} and
   * {@code bit}: a guarded site's, see {@code DetectRuntime.writeField}; 0 for any other write).
   */
  @DontInline
  private static ThreadShadow checkedWrite(DetectRuntime rt, ThreadShadow t, Object object, int fieldId, int site,
                                           long keep, long bit) {
    t.busy = true;
    try {
      rt.writeField(t, object, fieldId, site, keep, bit);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
    return t;
  }

  /** After a read of a non-final, non-volatile static field. Without the thread slot (tests, the warm-up). */
  @DontInline
  public static void readStatic(int fieldId, int site) {
    readStatic(fieldId, site, null);
  }

  /**
   * After a read of a non-final, non-volatile static field.
   * {@code thread}: the method's thread slot, see {@link #readField(Object, int, int, ThreadShadow)}.
   */
  @DontInline
  public static ThreadShadow readStatic(int fieldId, int site, ThreadShadow thread) {
    DetectRuntime rt = runtime;
    if (rt == null) {
      return thread;
    }
    ThreadShadow t = thread != null ? thread : ThreadShadow.current();
    if (t.busy) {
      return t;
    }
    t.busy = true;
    try {
      rt.readStatic(t, fieldId, site);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
    return t;
  }

  /** Before a write of a non-final, non-volatile static field. Without the thread slot (tests, the warm-up). */
  @DontInline
  public static void writeStatic(int fieldId, int site) {
    writeStatic(fieldId, site, null);
  }

  /**
   * Before a write of a non-final, non-volatile static field.
   * {@code thread}: the method's thread slot, see {@link #readField(Object, int, int, ThreadShadow)}.
   */
  @DontInline
  public static ThreadShadow writeStatic(int fieldId, int site, ThreadShadow thread) {
    DetectRuntime rt = runtime;
    if (rt == null) {
      return thread;
    }
    ThreadShadow t = thread != null ? thread : ThreadShadow.current();
    if (t.busy) {
      return t;
    }
    t.busy = true;
    try {
      rt.writeStatic(t, fieldId, site);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
    return t;
  }

  /** After an array element load. Without the thread slot (tests, the warm-up). */
  @DontInline
  public static void readElement(Object array, int index, int site) {
    readElement(array, index, site, null);
  }

  /**
   * After an array element load.
   * {@code thread}: the method's thread slot, see {@link #readField(Object, int, int, ThreadShadow)}.
   */
  @DontInline
  public static ThreadShadow readElement(Object array, int index, int site, ThreadShadow thread) {
    DetectRuntime rt = runtime;
    if (rt == null || array == null) {
      return thread;
    }
    ThreadShadow t = thread != null ? thread : ThreadShadow.current();
    if (!t.busy) {
      checkElementRead(rt, t, array, index, site);
    }
    return t;
  }

  /** The element read hooks' body, for a thread not busy: the cover check, else the full read under the busy flag. */
  @ForceInline // into its two hooks: no call more
  private static void checkElementRead(DetectRuntime rt, ThreadShadow t, Object array, int index, int site) {
    if (rt.coveredElementRead(t, array)) {
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

  /**
   * After the last of a straight-line stretch's reads of elements {@code [from, to)} of {@code array} (the
   * instrumenter's {@code RedundantChecks}: {@code b[i] … b[i + 3]}): each checked as {@link #readElement} would have,
   * reported at {@code site}; the same cover check first. {@code thread}: the method's thread slot.
   */
  @DontInline
  public static ThreadShadow readElements(Object array, int from, int to, int site, ThreadShadow thread) {
    DetectRuntime rt = runtime;
    if (rt == null || array == null || from >= to) {
      return thread;
    }
    ThreadShadow t = thread != null ? thread : ThreadShadow.current();
    if (t.busy || rt.coveredElementRead(t, array)) {
      return t;
    }
    t.busy = true;
    try {
      rt.readRange(t, array, from, to, 1, site);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
    return t;
  }

  /**
   * After the last of a straight-line stretch's writes of elements {@code [from, to)} of {@code array} (the
   * instrumenter's {@code RedundantChecks}: {@code state[0] = s0; … state[3] = s3}): each checked and recorded as
   * {@link #writeElement} would have, reported at {@code site}. {@code thread}: the method's thread slot.
   */
  @DontInline
  public static ThreadShadow writeElements(Object array, int from, int to, int site, ThreadShadow thread) {
    DetectRuntime rt = runtime;
    if (rt == null || array == null || from >= to) {
      return thread;
    }
    ThreadShadow t = thread != null ? thread : ThreadShadow.current();
    if (t.busy) {
      return t;
    }
    t.busy = true;
    try {
      rt.writeRange(t, array, from, to, 1, site);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
    return t;
  }

  /** Before an array element store. Without the thread slot (tests, the warm-up). */
  @DontInline
  public static void writeElement(Object array, int index, int site) {
    writeElement(array, index, site, null);
  }

  /**
   * Before an array element store.
   * {@code thread}: the method's thread slot, see {@link #readField(Object, int, int, ThreadShadow)}.
   */
  @DontInline
  public static ThreadShadow writeElement(Object array, int index, int site, ThreadShadow thread) {
    DetectRuntime rt = runtime;
    if (rt == null || array == null) {
      return thread;
    }
    ThreadShadow t = thread != null ? thread : ThreadShadow.current();
    fullElementWrite(rt, t, array, index, site);
    return t;
  }

  /**
   * The element write hooks' body: nothing for a busy thread, the owner check
   * ({@code DetectRuntime.ownedElementWrite}), else the full write under the busy flag — then true.
   */
  @ForceInline // into its two hooks: no call more
  private static boolean fullElementWrite(DetectRuntime rt, ThreadShadow t, Object array, int index, int site) {
    if (t.busy || rt.ownedElementWrite(t, array, index, site)) {
      return false;
    }
    t.busy = true;
    try {
      rt.writeElement(t, array, index, site);
      t.noteRepeatable(array, index, site, t.guardEpoch(), rt.shadowMemory());
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
    return true;
  }

  /**
   * At an exit of a loop whose element reads were hoisted (the instrumenter's {@code LoopCheckHoister}): the loop
   * read elements {@code [from, to)} of {@code array} (an empty or inverted range checks nothing), each checked as
   * {@link #readElement} would have, reported at {@code site}. Called once per loop execution, so it looks the
   * thread's shadow up itself.
   */
  @DontInline
  public static void readRange(Object array, int from, int to, int site) {
    checkRangeRead(array, from, to, 1, site);
  }

  /** As {@link #readRange(Object, int, int, int)}, for every {@code step}-th element from {@code from} on. */
  @DontInline
  public static void readRange(Object array, int from, int to, int step, int site) {
    checkRangeRead(array, from, to, step, site);
  }

  /**
   * The range read hooks' body: the element read hook's cover check first (the thread covers every write recorded
   * for the array, which its caches hold: a counter array the loop's thread wrote — nothing to check, no busy flag),
   * else every element of the range checked under the busy flag.
   */
  @ForceInline // into its two hooks: no call more
  private static void checkRangeRead(Object array, int from, int to, int step, int site) {
    DetectRuntime rt = runtime;
    if (rt == null || array == null || from >= to || step < 1) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (t.busy || rt.coveredElementRead(t, array)) {
      return;
    }
    t.busy = true;
    try {
      rt.readRange(t, array, from, to, step, site);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** As {@link #readRange}, for the elements a loop wrote: each checked and recorded as {@link #writeElement}. */
  @DontInline
  public static void writeRange(Object array, int from, int to, int site) {
    writeRange(array, from, to, 1, site);
  }

  /** As {@link #writeRange(Object, int, int, int)}, for every {@code step}-th element from {@code from} on. */
  @DontInline
  public static void writeRange(Object array, int from, int to, int step, int site) {
    DetectRuntime rt = runtime;
    if (rt == null || array == null || from >= to || step < 1) {
      return;
    }
    ThreadShadow t = enter();
    if (t == null) {
      return;
    }
    try {
      rt.writeRange(t, array, from, to, step, site);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /**
   * An array-typed field was read or written: the array is named after it ({@code pkg.Cls.slots[]}).
   * Without the thread slot: for tests and the warm-up.
   */
  @DontInline
  public static void arrayInField(Object array, int fieldId) {
    arrayInField(array, fieldId, null);
  }

  /**
   * An array-typed field was read or written: the array is named after it ({@code pkg.Cls.slots[]}).
   * {@code thread}: the method's thread slot, see {@link #readField(Object, int, int, ThreadShadow)}.
   */
  @DontInline
  public static ThreadShadow arrayInField(Object array, int fieldId, ThreadShadow thread) {
    DetectRuntime rt = runtime;
    if (rt == null || array == null) {
      return thread;
    }
    ThreadShadow t = thread != null ? thread : ThreadShadow.current();
    if (t.busy) {
      return t;
    }
    t.busy = true;
    try {
      rt.noteArrayField(t, array, fieldId);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
    return t;
  }

  /** After monitorenter, at the entry of a synchronized method, after Object.wait: ACQUIRE the monitor. */
  @DontInline
  public static void monitorEnter(Object monitor) {
    DetectRuntime rt = runtime;
    if (rt == null || monitor == null) {
      return;
    }
    ThreadShadow t = enter();
    if (t == null) {
      return;
    }
    try {
      rt.monitorEnter(t, monitor);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /**
   * predict=true, after the monitorenter of a synchronized block whose section the agent sees whole (straight-line
   * accesses only: {@code instrument.TransparentSections}): ACQUIRE, and WCP may relax the section's order.
   */
  @DontInline
  public static void monitorEnterTransparent(Object monitor) {
    DetectRuntime rt = runtime;
    if (rt == null || monitor == null) {
      return;
    }
    ThreadShadow t = enter();
    if (t == null) {
      return;
    }
    try {
      rt.monitorEnter(t, monitor, true);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** Before monitorexit, at every exit of a synchronized method, before Object.wait: RELEASE the monitor. */
  @DontInline
  public static void monitorExit(Object monitor) {
    DetectRuntime rt = runtime;
    if (rt == null || monitor == null) {
      return;
    }
    ThreadShadow t = enter();
    if (t == null) {
      return;
    }
    try {
      rt.monitorExit(t, monitor);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** After a read of a volatile instance field: ACQUIRE. */
  @DontInline
  public static void volatileRead(Object object, int fieldId) {
    DetectRuntime rt = runtime;
    if (rt == null || object == null) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (t.busy || rt.coveredVolatileRead(t, object, fieldId)) {
      return; // the agent at work on this thread, or an acquire that would change nothing: no busy flag, no call
    }
    t.busy = true;
    try {
      rt.volatileRead(t, object, fieldId);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** Before a write of a volatile instance field: RELEASE. */
  @DontInline
  public static void volatileWrite(Object object, int fieldId) {
    DetectRuntime rt = runtime;
    if (rt == null || object == null) {
      return;
    }
    ThreadShadow t = enter();
    if (t == null) {
      return;
    }
    try {
      rt.volatileWrite(t, object, fieldId);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** After a read of a volatile static field: ACQUIRE. */
  @DontInline
  public static void volatileReadStatic(int fieldId) {
    DetectRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = enter();
    if (t == null) {
      return;
    }
    try {
      rt.volatileReadStatic(t, fieldId);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** Before a write of a volatile static field: RELEASE. */
  @DontInline
  public static void volatileWriteStatic(int fieldId) {
    DetectRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = enter();
    if (t == null) {
      return;
    }
    try {
      rt.volatileWriteStatic(t, fieldId);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** Called at the start of {@code Thread.start()}: FORK, before the child can run. */
  @DontInline
  public static void threadStarting(Thread child) {
    DetectRuntime rt = runtime;
    if (rt == null || child == null) {
      return;
    }
    ThreadShadow t = enter();
    if (t == null) {
      return;
    }
    try {
      rt.fork(t, child);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** At the entry of a class initialiser: its writes are recorded at ⊥ (they happen-before every use of the class). */
  @DontInline
  public static void clinitEnter() {
    DetectRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = enter();
    if (t == null) {
      return;
    }
    try {
      rt.enterClinit(t);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** At every exit of a class initialiser, normal or exceptional. */
  @DontInline
  public static void clinitExit() {
    DetectRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = enter();
    if (t == null) {
      return;
    }
    try {
      rt.exitClinit(t);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /**
   * An atomic operation (VarHandle, Unsafe, field updater) is about to run: {@code target} is its first argument
   * (the object or array it updates), or null for a static-field handle, which then stands for its field itself.
   * {@code mode} says which halves apply; the release half happens here, before the operation.
   */
  @DontInline
  public static void atomicBefore(Object handle, Object target, int mode) {
    Object key = target != null ? target : handle;
    DetectRuntime rt = runtime;
    if (rt == null || key == null || (mode & SYNC_RELEASE) == 0) {
      return;
    }
    ThreadShadow t = enter();
    if (t == null) {
      return;
    }
    try {
      if ((mode & SYNC_ACQUIRE) != 0) {
        rt.atomicAcquireRelease(t, key);
      } else {
        rt.atomicRelease(t, key);
      }
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** The same atomic operation has returned: its acquire half. */
  @DontInline
  public static void atomicAfter(Object handle, Object target, int mode) {
    Object key = target != null ? target : handle;
    DetectRuntime rt = runtime;
    if (rt == null || key == null || (mode & SYNC_ACQUIRE) == 0) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (t.busy || rt.coveredAtomicAcquire(t, key)) {
      return; // the agent at work, or an acquire that would change nothing (the cover check, as for pointer reads)
    }
    t.busy = true;
    try {
      rt.atomicAcquire(t, key);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /**
   * After a plain reference read in trusted JDK code (a field of reference type, or an element of an object array):
   * ACQUIRE the holder's atomic clock if an atomic operation ever released on it. Lock-free JDK structures publish
   * with a CAS on the predecessor and read with plain loads after a fence (ConcurrentSkipListMap); the agent does
   * not model fences, so the pointer it follows stands in for them. Without the thread slot (tests, the warm-up).
   */
  @DontInline
  public static void trustedReferenceRead(Object holder) {
    trustedReferenceRead(holder, null);
  }

  /**
   * As {@link #trustedReferenceRead(Object)}, with the method's thread slot (see {@link #readField}). Its body is the
   * acquire's cover check ({@code DetectRuntime.coveredTrustedRead}): a holder of a class with a shadow slot that has
   * no shadow, no atomic clock, or one the thread's clock already covers — a walk over nodes this thread linked, or
   * had already acquired — costs loads and compares, no busy flag and no call. A skip list's search reads a few
   * dozen such pointers per operation.
   */
  @DontInline // the cover check is its body: see the class comment
  public static ThreadShadow trustedReferenceRead(Object holder, ThreadShadow thread) {
    DetectRuntime rt = runtime;
    if (rt == null || holder == null) {
      return thread;
    }
    ThreadShadow t = thread != null ? thread : ThreadShadow.current();
    if (t.busy || rt.coveredTrustedRead(t, holder)) {
      return t;
    }
    return checkedTrustedRead(rt, t, holder);
  }

  /** A trusted pointer read the cover check did not settle: the acquire, out of line. */
  @DontInline
  private static ThreadShadow checkedTrustedRead(DetectRuntime rt, ThreadShadow t, Object holder) {
    t.busy = true;
    try {
      rt.trustedReferenceRead(t, holder);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
    return t;
  }

  /** Replaces {@code monitor.wait()}: the monitor is released while waiting and acquired again after. */
  @DontInline
  public static void waitOn(Object monitor) throws InterruptedException {
    monitorExit(monitor);
    try {
      monitor.wait();
    } finally {
      monitorEnter(monitor);
    }
  }

  /** Replaces {@code monitor.wait(millis)}. */
  @DontInline
  public static void waitOn(Object monitor, long millis) throws InterruptedException {
    monitorExit(monitor);
    try {
      monitor.wait(millis);
    } finally {
      monitorEnter(monitor);
    }
  }

  /** Replaces {@code monitor.wait(millis, nanos)}. */
  @DontInline
  public static void waitOn(Object monitor, long millis, int nanos) throws InterruptedException {
    monitorExit(monitor);
    try {
      monitor.wait(millis, nanos);
    } finally {
      monitorEnter(monitor);
    }
  }

  /** Called when {@code Thread.join(long)} returns normally: JOIN if the thread has terminated. */
  @DontInline
  public static void joinReturned(Thread joined) {
    if (joined != null && !joined.isAlive()) {
      joinedTerminated(joined);
    }
  }

  /** Replaces {@code thread.isAlive()} in application code: a {@code false} is a JOIN (JRF Figure 1). */
  @DontInline
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
    ThreadShadow t = enter();
    if (t == null) {
      return;
    }
    try {
      rt.join(t, joined);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }
}
