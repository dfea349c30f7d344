package dev.racetriage.agent.runtime;

import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;

import dev.racetriage.agent.hb.ThreadState;

/**
 * The runtime's per-thread record: the re-entrancy flag that keeps the agent's own work (and the JDK code it calls)
 * from producing events, the thread's happens-before state, and a small cache of the objects it touched last (a
 * loop over an array, or over a few locks, then costs no shared-table lookup).
 *
 * <p>Used only by its own thread, so nothing here is synchronised.
 */
public final class ThreadShadow {
  private static final ThreadLocal<ThreadShadow> CURRENT = new ThreadLocal<>() {
    @Override
    protected ThreadShadow initialValue() {
      return new ThreadShadow(Thread.currentThread()); // trivial: a hook must not re-enter while this runs
    }
  };

  /**
   * The empty tool (RoadRunner's term): with {@code -Dracetriage.agent.emptyTool=true} every thread is busy from the
   * start, so every hook returns right after its guard (the thread lookup and this flag) — the instrumented program
   * and the hooks' calls with no analysis, the floor under detect mode's cost, for benchmarks/agent-slowdown.sh.
   * Such a run reports no race and is not a detection run.
   */
  static final boolean EMPTY_TOOL = Boolean.getBoolean("racetriage.agent.emptyTool");

  /** True while the agent works on this thread; hooks fired meanwhile return at once. Always, in the empty tool. */
  boolean busy = EMPTY_TOOL;
  /** Jumble mode: this thread's last writes to sampled elements of arrays no jumbled field held yet, or null. */
  UnpublishedWrites unpublished;
  private ThreadState state;
  /** The registry {@link #state} came from; a new runtime (tests install several) starts the thread afresh. */
  private ThreadRegistry stateRegistry;
  /** The shadow memory the cached entries belong to. */
  private ShadowMemory cacheMemory;
  private static final int RECENT = 4096;
  /**
   * The last four objects missed on, replaced round-robin: a loop body touching up to four objects (an array of
   * stripes, the stripe, its lock, the lock's state) hits here, and a hit stores nothing.
   */
  private WeakIdentityTable.Entry<ObjectShadow> way0;
  private WeakIdentityTable.Entry<ObjectShadow> way1;
  private WeakIdentityTable.Entry<ObjectShadow> way2;
  private WeakIdentityTable.Entry<ObjectShadow> way3;
  private int nextWay;
  /** The arrays of the last element read and written (see {@link #shadowOfReadArray}). */
  private WeakIdentityTable.Entry<ObjectShadow> lastRead;
  private WeakIdentityTable.Entry<ObjectShadow> lastWritten;
  /** The array written before {@link #lastWritten} (see {@link #shadowOfWrittenArray}). */
  private WeakIdentityTable.Entry<ObjectShadow> previousWritten;
  /**
   * The thread's last element write that an element write hook (or the write guard) recorded, for the repeated-write
   * guard ({@link #repeats}): its array (null: none), index, site, epoch and shadow memory. Held strongly: one array
   * per thread, until its next element write.
   */
  private Object repeatArray;
  private int repeatIndex;
  private int repeatSite;
  private long repeatEpoch;
  private ShadowMemory repeatMemory;
  /**
   * Direct-mapped by identity hash: the objects (locks, stripes, queues, the particles of a force loop) this thread
   * touched recently (16 KiB with compressed references; 256 slots made a loop over ~900 objects miss into the table).
   */
  private WeakIdentityTable.Entry<?>[] recent = new WeakIdentityTable.Entry<?>[RECENT];
  /**
   * The last two containers this thread met that a field holds ({@code ContainerHooks}): their shadows' table entries
   * (which name the holder) and pseudo-field ids under {@link #heldRuntime}. A holder is set once, so a hit is final;
   * a parser walking its element stack and its list of formatting elements in turn asks for the same two lists
   * millions of times.
   */
  private WeakIdentityTable.Entry<ObjectShadow> held0;
  private WeakIdentityTable.Entry<ObjectShadow> held1;
  private int heldId0;
  private int heldId1;
  private Object heldRuntime;

  /**
   * The shadows of running threads by {@link Thread#getId()} modulo the length: a cache in front of {@link #CURRENT}
   * (an array load and one identity compare instead of a hash-table probe through a weak reference — the lookup every
   * hook in JDK code makes, a sixth of a lock-heavy run's time, and every instrumented method invocation once). A slot
   * is the caller's own only if it holds a shadow of the calling {@code Thread} object itself, so the id is only an
   * index: a subclass overriding {@code getId()}, or two threads sharing a slot, cost a miss, never a wrong shadow. Each
   * thread writes only the slot of its id. A finished thread's shadow (and with it its {@code Thread} object, whose
   * thread-locals and target the JDK clears at exit) stays in its slot until a thread with the same slot replaces it
   * (1024 slots: a bounded, small retention).
   */
  private static final ThreadShadow[] BY_ID = new ThreadShadow[1024];

  /** The thread this shadow belongs to (compared by identity in {@link #current}). */
  private final Thread thread;

  private ThreadShadow(Thread thread) {
    this.thread = thread;
  }

  public static ThreadShadow current() {
    Thread thread = Thread.currentThread();
    int slot = (int) thread.getId() & (BY_ID.length - 1);
    ThreadShadow s = BY_ID[slot];
    return s != null && s.thread == thread ? s : currentMiss(slot);
  }

  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private static ThreadShadow currentMiss(int slot) {
    ThreadShadow s = CURRENT.get();
    BY_ID[slot] = s;
    return s;
  }

  /**
   * Marks the thread busy for work that must not produce events (class transformation, report writing).
   *
   * @return the previous value, to hand to {@link #exitAgent(boolean)}
   */
  public boolean enterAgent() {
    boolean previous = busy;
    busy = true;
    return previous;
  }

  public void exitAgent(boolean previous) {
    busy = previous;
  }

  ThreadState state(ThreadRegistry registry) {
    ThreadState s = state;
    return s != null && stateRegistry == registry ? s : newState(registry);
  }

  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private ThreadState newState(ThreadRegistry registry) {
    ThreadState s = registry.stateOf(Thread.currentThread());
    state = s;
    stateRegistry = registry;
    return s;
  }

  /**
   * The object's shadow. The fast path compares with the last four objects missed on and stores nothing on a hit,
   * so a loop over a few arrays or objects neither hashes nor writes references (which cost G1 barriers).
   */
  ObjectShadow shadowOf(Object object, ShadowMemory memory) {
    long slot = slotOffset(object.getClass());
    if (slot != ShadowSlots.NONE) {
      return ShadowSlots.of(object, slot, memory);
    }
    // the caches hold table entries, which reference the objects weakly: the agent must not keep them alive
    return entryOf(object, memory).value;
  }

  /**
   * The shadow of an object whose field {@code fieldId} is accessed: as {@link #shadowOf(Object, ShadowMemory)}, but
   * the slot offset is looked up by field first ({@link #BY_FIELD}). A field's receivers are nearly always of one
   * class, while consecutive accesses of one thread alternate between a few classes (an iterator, its histogram,
   * the value object it fills: HdrHistogram's iterators missed the last-class compare on most accesses, and the
   * direct-mapped table behind it was a fifth of the run).
   */
  ObjectShadow shadowOfField(Object object, int fieldId, ShadowMemory memory) {
    Class<?> type = object.getClass();
    long slot = cachedSlot(type, fieldId);
    if (slot == UNCACHED) {
      slot = fieldSlotMiss(type, fieldId);
    }
    if (slot != ShadowSlots.NONE) {
      return ShadowSlots.of(object, slot, memory);
    }
    return entryOf(object, memory).value;
  }

  /**
   * The owned-write guard's epoch (see {@code Hooks.ownedRewrite}): this thread's current epoch, or
   * {@code ThreadState.NO_GUARD_EPOCH} — never a write summary — while it has no state yet or runs a class initialiser
   * (whose writes are recorded at ⊥: the hook must run). A state of an earlier registry may answer: the guard also
   * asks that the shadow's writer is this thread, which for a shadow of this memory is only a thread that ran this
   * registry's hooks.
   */
  @ForceInline
  long guardEpoch() {
    ThreadState s = state;
    return s == null ? ThreadState.NO_GUARD_EPOCH : s.guardEpoch();
  }

  /**
   * The shadow of an object whose field {@code fieldId} is written from {@code site} at epoch {@code now} outside a
   * class initialiser: as {@link #shadowOfField}, but a shadow installed in the object's slot for this write already
   * holds it ({@link ShadowSlots#ofWritten}).
   */
  ObjectShadow shadowOfWrittenField(Object object, int fieldId, ShadowMemory memory, long now, int site) {
    Class<?> type = object.getClass();
    long slot = cachedSlot(type, fieldId);
    if (slot == UNCACHED) {
      slot = fieldSlotMiss(type, fieldId);
    }
    if (slot != ShadowSlots.NONE) {
      return ShadowSlots.ofWritten(object, slot, memory, now, fieldId, site);
    }
    return entryOf(object, memory).value;
  }

  /**
   * The write hook's check (see {@code Hooks.writeField}): true if {@code object} already has this memory's shadow in
   * its slot, found by the field's cached (class, offset) pair — or, for a class without a slot (a JDK container
   * under its pseudo-field), in one of this thread's four ways — and this thread's write of the field from
   * {@code site} in its current epoch changes nothing in it but a site ({@link ObjectShadow#rewrite}) — exactly the
   * case in which {@code DetectRuntime.writeField} would change nothing else. False whenever anything is not at hand
   * (no state in this registry yet, a class initialiser running, a cache miss, no shadow yet).
   */
  @ForceInline // into the write hook: loads and compares, no call
  boolean rewrites(Object object, int fieldId, int site, ShadowMemory memory, ThreadRegistry registry, long keep,
                   long bit) {
    ThreadState s = state;
    if (s == null || stateRegistry != registry) {
      return false;
    }
    long now = s.guardEpoch(); // the epoch, or NO_GUARD_EPOCH in a class initialiser: one load, not the clock's
    if (now == ThreadState.NO_GUARD_EPOCH) {
      return false;
    }
    long slot = cachedSlot(object.getClass(), fieldId);
    if (slot >= 0) {
      return ShadowSlots.rewrites(object, slot, memory, now, fieldId, site, keep, bit);
    }
    if (slot == ShadowSlots.NONE) { // a class without a slot (a JDK container's pseudo-field): a way may hold it
      WeakIdentityTable.Entry<ObjectShadow> e = cachedWay(object, memory);
      return e != null && e.value.rewrite(now, fieldId, site, keep, 0L);
    }
    return false;
  }

  /**
   * The read hook's cover check (see {@code Hooks.readField}): true if {@code object} already has this memory's
   * shadow in its slot, found by the field's cached (class, offset) pair — or, for a class without a slot (a JDK
   * container under its pseudo-field: a parser's element stack), in one of this thread's four ways — and this thread
   * covers every write to it (its own writes, or writes ordered before it) — exactly the case in which
   * {@code DetectRuntime.readField} does nothing. False whenever anything is not at hand (no state in this registry
   * yet, a cache miss, no shadow yet): the hook's call then does the full read. Reads only; no cache is filled here.
   */
  @ForceInline // into the read hook: loads and compares, no call
  boolean coversWritesOf(Object object, int fieldId, ShadowMemory memory, ThreadRegistry registry) {
    ThreadState s = state;
    if (s == null || stateRegistry != registry) {
      return false;
    }
    long slot = cachedSlot(object.getClass(), fieldId);
    if (slot >= 0) {
      return ShadowSlots.writesCoveredBy(object, slot, memory, s);
    }
    if (slot == ShadowSlots.NONE) { // a class without a slot (a JDK container's pseudo-field): a way may hold it
      WeakIdentityTable.Entry<ObjectShadow> e = cachedWay(object, memory);
      return e != null && e.value.writesCoveredBy(s);
    }
    return false;
  }

  /**
   * The trusted pointer read's cover check (see {@code Hooks.trustedReferenceRead}): true if {@code holder}'s releaser
   * field names this thread (every release on it was this thread's), or its class has a shadow slot and the slot holds
   * no shadow of this memory, or one with no atomic clock or only this thread's releases, or one whose clock's cover
   * this thread's clock covers — exactly the cases in which {@code DetectRuntime.trustedReferenceRead} changes nothing.
   * False whenever anything is not at hand (no state in this registry yet, a class without a slot).
   */
  @ForceInline // into the trusted read hook: loads and compares, no call
  boolean coversAtomicOf(Object holder, ShadowMemory memory, ThreadRegistry registry) {
    SlotOffset k = slotEntry(holder.getClass());
    if (k.releaser >= 0 && ShadowSlots.releasedOnlyByCurrentThread(holder, k.releaser)) {
      return true; // every release on it was this thread's, in any memory: no shadow needed
    }
    ThreadState s = state;
    if (s == null || stateRegistry != registry) {
      return false;
    }
    return k.offset >= 0 && ShadowSlots.atomicCoveredBy(holder, k.offset, memory, s);
  }

  /**
   * The atomic acquire's cover check (see {@code Hooks.atomicAfter}): true if {@code DetectRuntime.atomicAcquire} would
   * change nothing — found through the object's slot ({@link ShadowSlots#atomicAcquireCoveredBy}), or for an array in
   * one of this thread's four ways ({@link ObjectShadow#atomicAcquireCoveredBy}). False whenever anything is not at
   * hand (no state in this registry yet, a class without a slot, an array not in the ways).
   */
  @ForceInline // into the atomic acquire hook: loads and compares, no call
  boolean coversAtomicAcquireOf(Object object, ShadowMemory memory, ThreadRegistry registry) {
    ThreadState s = state;
    if (s == null || stateRegistry != registry) {
      return false;
    }
    Class<?> type = object.getClass();
    if (type.isArray()) { // no slot: the ways (a hash table's array, acquired at each lookup of a bucket)
      WeakIdentityTable.Entry<ObjectShadow> e = cachedWay(object, memory);
      return e != null && e.value.atomicAcquireCoveredBy(s);
    }
    SlotOffset k = slotEntry(type);
    return k.offset >= 0 && ShadowSlots.atomicAcquireCoveredBy(object, k.offset, k.releaser, memory, s);
  }

  /**
   * The volatile read's cover check (see {@code Hooks.volatileRead}): true if {@code DetectRuntime.volatileRead} would
   * change nothing — the object's slot holds no shadow of this memory (nothing was ever released on it: the full read
   * would only make one), or its shadow's field and atomic clocks are covered
   * ({@link ObjectShadow#volatileReadCoveredBy}). False whenever anything is not at hand (no state in this registry
   * yet, a class without a slot).
   */
  @ForceInline // into the volatile read hook: loads and compares, no call
  boolean coversVolatileReadOf(Object object, int fieldId, ShadowMemory memory, ThreadRegistry registry) {
    ThreadState s = state;
    if (s == null || stateRegistry != registry) {
      return false;
    }
    SlotOffset k = slotEntry(object.getClass());
    if (k.offset < 0) {
      return false;
    }
    ObjectShadow shadow = ShadowSlots.peek(object, k.offset, memory);
    return shadow == null || shadow.volatileReadCoveredBy(fieldId, s);
  }

  /**
   * After this thread released on {@code object}'s atomic clock (whose shadow is {@code shadow}): records it as a
   * releaser, in the object's releaser field if its class has one, else in the shadow.
   */
  void noteAtomicReleaser(Object object, ObjectShadow shadow) {
    long releaser = slotEntry(object.getClass()).releaser;
    if (releaser >= 0) {
      ShadowSlots.noteReleaser(object, releaser);
    } else {
      shadow.noteAtomicReleaser();
    }
  }

  /**
   * The element read hook's cover check (see {@code Hooks.readElement}): true if {@code array}'s shadow is this
   * thread's last read array or in one of its four ways, and this thread covers every write to the array (the summary
   * is one of its own epochs, or ordered before it) — exactly the case in which {@code DetectRuntime.readElement}
   * returns before looking at any element. False whenever anything is not at hand; reads only, fills no cache.
   */
  @ForceInline // into the read hook: loads and compares, no call
  boolean coversElementWritesOf(Object array, ShadowMemory memory, ThreadRegistry registry) {
    ThreadState s = state;
    if (s == null || stateRegistry != registry) {
      return false;
    }
    WeakIdentityTable.Entry<ObjectShadow> e = knownEntry(array, memory);
    return e != null && e.value.writesCoveredBy(s);
  }

  /**
   * The element write's owner check (the write hook's fast path, {@code DetectRuntime.ownedElementWrite}, and the
   * owned-element write guard, {@code Hooks.ownedElementWrite}): if {@code array} is one of this thread's last two
   * written arrays in {@code memory}, this thread is its shadow's writer, the write summary is this thread's current
   * epoch and the element's record is at hand, the write of element {@code index} from {@code site} is recorded here
   * (its epoch and site, {@link ObjectShadow#ownedElementWrite}) and true is returned. False whenever anything is not
   * at hand (another array, no records or an unallocated chunk yet, a class initialiser running): the hook then takes
   * the full write. The writer
   * check makes a state of an earlier registry harmless, as in the owned-write guard: a shadow of this memory's writer
   * is a thread that ran this registry's hooks, so its state is this registry's. Loads, compares and two plain
   * stores, no call.
   */
  @ForceInline // into the write hook and the guard
  boolean ownsElementWrite(Object array, int index, int site, ShadowMemory memory) {
    if (cacheMemory != memory) {
      return false;
    }
    WeakIdentityTable.Entry<ObjectShadow> e = lastWritten;
    if (e == null || !e.refersTo(array)) {
      e = previousWritten;
      if (e == null || !e.refersTo(array)) {
        return false;
      }
    }
    ObjectShadow s = e.value;
    long now = guardEpoch();
    if (s.writtenOnlyByCurrentThread() && s.ownedElementWrite(index, site, now)) {
      noteRepeatable(array, index, site, now, memory);
      return true;
    }
    return false;
  }

  /**
   * The repeated-write guard's test ({@code Hooks.repeatedElementWrite}): true if this thread's last recorded element
   * write was of the same element of {@code array} from the same {@code site}, in its current epoch; the guard then
   * asks {@link #repeatedIn} whether it was recorded in the guards' memory (null while no guard may settle anything: a
   * predictive analysis sees every event). The write hook
   * would find the element's record holding exactly this write, or — if another thread wrote or read the element
   * since — check it against that access, which was itself checked against the recorded write of the same site and
   * epoch: the same race on the same element, already reported (a thread's epoch changes only at its releases, so
   * an access ordered after one of the two writes is ordered after both). Loads and compares, no call.
   */
  @ForceInline
  boolean repeats(Object array, int index, int site) {
    return repeatArray == array && repeatIndex == index && repeatSite == site && repeatEpoch == guardEpoch();
  }

  /** The second half of {@link #repeats}: the remembered write was recorded in {@code memory} (not null). */
  @ForceInline
  boolean repeatedIn(ShadowMemory memory) {
    return memory != null && repeatMemory == memory;
  }

  /** An element write the hook recorded at epoch {@code now} (a class initialiser's is not repeatable). */
  @ForceInline
  void noteRepeatable(Object array, int index, int site, long now, ShadowMemory memory) {
    if (now == ThreadState.NO_GUARD_EPOCH) {
      repeatArray = null;
      return;
    }
    repeatArray = array;
    repeatIndex = index;
    repeatSite = site;
    repeatEpoch = now;
    repeatMemory = memory;
  }

  /** A range of elements was written (a hoisted loop, a bulk copy): the last single write is not repeatable. */
  void forgetRepeatable() {
    repeatArray = null;
  }

  /**
   * The weak-table entry of {@code array} if this thread's own caches hold it (its last read array, a way, or its
   * slot of the recent entries: a loop that reads more arrays than there are ways, as a pattern matcher comparing its
   * counters with each of a table's rows), else null: nothing is looked up or created. The recent slot costs the
   * array's identity hash, which its entry's creation stored in its header.
   */
  @ForceInline // into the read hook's cover check
  WeakIdentityTable.Entry<ObjectShadow> knownEntry(Object array, ShadowMemory memory) {
    if (cacheMemory != memory) {
      return null;
    }
    WeakIdentityTable.Entry<ObjectShadow> e = lastRead;
    if (e != null && e.refersTo(array)) {
      return e;
    }
    e = cachedWay(array, memory);
    return e != null ? e : recentEntry(array);
  }

  /** {@code array}'s entry if its slot of the recent entries holds it, else null (the caller checked the memory). */
  @ForceInline
  private WeakIdentityTable.Entry<ObjectShadow> recentEntry(Object array) {
    @SuppressWarnings("unchecked")
    WeakIdentityTable.Entry<ObjectShadow> e =
        (WeakIdentityTable.Entry<ObjectShadow>) recent[System.identityHashCode(array) & (RECENT - 1)];
    return e != null && e.refersTo(array) ? e : null;
  }

  /** As {@link #knownEntry}, the thread's last written array first. */
  WeakIdentityTable.Entry<ObjectShadow> knownWrittenEntry(Object array, ShadowMemory memory) {
    if (cacheMemory != memory) {
      return null;
    }
    WeakIdentityTable.Entry<ObjectShadow> e = lastWritten;
    return e != null && e.refersTo(array) ? e : cachedWay(array, memory);
  }

  /**
   * Slot offsets by field id: the class of the field's last receiver (any thread's) and its offset. Shared by all
   * threads, written only on a miss; an entry is immutable, so a racing reader sees a whole one or a stale one (a
   * miss). A stale array after a growth is a miss too.
   */
  private static SlotOffset[] BY_FIELD = new SlotOffset[1024];

  /** {@link #cachedSlot}'s answer when the field's entry is for another class, or there is none yet. */
  private static final long UNCACHED = -2L; // not NONE (-1): an offset is never negative

  /**
   * The slot offset cached for field {@code fieldId}'s receivers of class {@code type} (an offset, or
   * {@link ShadowSlots#NONE} for a class without a slot), or {@link #UNCACHED}. Fills nothing.
   */
  @ForceInline // into the hooks' checks: loads and compares
  private static long cachedSlot(Class<?> type, int fieldId) {
    SlotOffset[] byField = BY_FIELD;
    SlotOffset known = fieldId >= 0 && fieldId < byField.length ? byField[fieldId] : null;
    return known != null && known.type == type ? known.offset : UNCACHED;
  }

  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private long fieldSlotMiss(Class<?> type, int fieldId) {
    SlotOffset last = lastSlot;
    SlotOffset known = last.type == type ? last : slotOffsetEntry(type);
    if (fieldId >= 0) {
      SlotOffset[] byField = BY_FIELD;
      if (fieldId >= byField.length) {
        byField = java.util.Arrays.copyOf(byField, Math.max(fieldId + 1, byField.length * 2));
        BY_FIELD = byField;
      }
      byField[fieldId] = known;
    }
    return known.offset;
  }

  /** A class and the offset of its objects' shadow slot ({@link ShadowSlots}; -1: none). */
  private static final class SlotOffset {
    final Class<?> type;
    final long offset;
    /** The releaser field's offset ({@link ShadowSlots#RELEASER}), or -1. */
    final long releaser;

    SlotOffset(Class<?> type, long offset, long releaser) {
      this.type = type;
      this.offset = offset;
      this.releaser = releaser;
    }
  }

  private static final int SLOT_CLASSES = 64;
  /**
   * The slot offsets of the classes this thread looked up, direct-mapped by the class's identity hash: an object of
   * an application class costs a hash, a load and a compare to find its shadow (two ways thrashed on a ray tracer's
   * half-dozen value classes, and every miss went to a {@code ClassValue}).
   */
  private final SlotOffset[] slotOffsets = new SlotOffset[SLOT_CLASSES];

  /** The class of the last lookup and its offset: consecutive accesses are mostly to objects of one class. */
  private SlotOffset lastSlot = new SlotOffset(ThreadShadow.class, ShadowSlots.NONE, ShadowSlots.NONE);

  /**
   * The class of the lookup before the last one that missed {@link #lastSlot}: a walk that alternates between two
   * classes (a skip list's index and data nodes) hits one of the two without the hashed table's call.
   */
  private SlotOffset previousSlot = lastSlot;

  private long slotOffset(Class<?> type) {
    return slotEntry(type).offset;
  }

  /** The slot and releaser offsets of {@code type}: the last class looked up, the one before, or the table. */
  private SlotOffset slotEntry(Class<?> type) {
    SlotOffset last = lastSlot;
    if (last.type == type) {
      return last;
    }
    SlotOffset previous = previousSlot;
    return previous.type == type ? previous : slotOffsetOther(type);
  }

  @DontInline // compiled once, not into every hot caller (see Hooks)
  private SlotOffset slotOffsetOther(Class<?> type) {
    return slotOffsetEntry(type);
  }

  private SlotOffset slotOffsetEntry(Class<?> type) {
    SlotOffset known = slotOffsets[System.identityHashCode(type) & (SLOT_CLASSES - 1)];
    if (known == null || known.type != type) {
      known = new SlotOffset(type, ShadowSlots.offsetOf(type), ShadowSlots.releaserOffsetOf(type));
      slotOffsets[System.identityHashCode(type) & (SLOT_CLASSES - 1)] = known;
    }
    previousSlot = lastSlot;
    lastSlot = known;
    return known;
  }

  /**
   * The shadow of an array whose element is read: the array of the last element read is compared first, so an
   * inner loop reading one array (and writing another, {@link #shadowOfWrittenArray}) hits at the first compare
   * wherever the array sits in the four ways. Stores only when the array changes.
   */
  ObjectShadow shadowOfReadArray(Object array, ShadowMemory memory) {
    WeakIdentityTable.Entry<ObjectShadow> e = lastRead;
    if (e == null || !e.refersTo(array) || cacheMemory != memory) {
      e = entryOf(array, memory);
      lastRead = e;
    }
    return e.value;
  }

  /**
   * The shadow of an array whose element is written: as {@link #shadowOfReadArray}, with its own last two arrays (a
   * loop or a lambda that writes two arrays in turn, {@code bitMap[idx[0]++] |= value}, finds both there: the
   * owned-element write guard looks at nothing else, {@link #ownsElementWrite}).
   */
  ObjectShadow shadowOfWrittenArray(Object array, ShadowMemory memory) {
    WeakIdentityTable.Entry<ObjectShadow> e = lastWritten;
    if (e == null || !e.refersTo(array) || cacheMemory != memory) {
      WeakIdentityTable.Entry<ObjectShadow> p = previousWritten;
      if (p == null || !p.refersTo(array) || cacheMemory != memory) {
        p = entryOf(array, memory);
      }
      previousWritten = e;
      lastWritten = p;
      return p.value;
    }
    return e.value;
  }

  /** The pseudo-field id cached for {@code container} held by a field, under {@code runtime}; -1 if none is. */
  int heldContainerId(Object container, Object runtime) {
    if (heldRuntime != runtime) {
      return -1;
    }
    WeakIdentityTable.Entry<ObjectShadow> e = held0;
    if (e != null && e.refersTo(container)) {
      return heldId0;
    }
    e = held1;
    return e != null && e.refersTo(container) ? heldId1 : -1;
  }

  /** Remembers a held container's entry and pseudo-field id (the older of the two goes). */
  void cacheHeldContainer(WeakIdentityTable.Entry<ObjectShadow> entry, int id, Object runtime) {
    if (heldRuntime != runtime) {
      held0 = null;
      held1 = null;
      heldRuntime = runtime;
    }
    if (id < 0) {
      return;
    }
    held1 = held0;
    heldId1 = heldId0;
    held0 = entry;
    heldId0 = id;
  }

  /** The object's weak-table entry (created if need be) if its class has no slot; null if it has one. */
  WeakIdentityTable.Entry<ObjectShadow> tableEntryOf(Object object, ShadowMemory memory) {
    return slotOffset(object.getClass()) != ShadowSlots.NONE ? null : entryOf(object, memory);
  }

  private WeakIdentityTable.Entry<ObjectShadow> entryOf(Object object, ShadowMemory memory) {
    WeakIdentityTable.Entry<ObjectShadow> e = cachedWay(object, memory);
    return e != null ? e : shadowOfMiss(object, memory);
  }

  private WeakIdentityTable.Entry<ObjectShadow> cachedWay(Object object, ShadowMemory memory) {
    if (cacheMemory != memory) {
      return null;
    }
    WeakIdentityTable.Entry<ObjectShadow> e = way0;
    if (e != null && e.refersTo(object)) {
      return e;
    }
    e = way1;
    if (e != null && e.refersTo(object)) {
      return e;
    }
    e = way2;
    if (e != null && e.refersTo(object)) {
      return e;
    }
    e = way3;
    return e != null && e.refersTo(object) ? e : null;
  }

  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private WeakIdentityTable.Entry<ObjectShadow> shadowOfMiss(Object object, ShadowMemory memory) {
    resetIfOtherMemory(memory);
    int slot = System.identityHashCode(object) & (RECENT - 1);
    @SuppressWarnings("unchecked")
    WeakIdentityTable.Entry<ObjectShadow> cached = (WeakIdentityTable.Entry<ObjectShadow>) recent[slot];
    if (cached == null || !cached.refersTo(object)) {
      cached = memory.entry(object);
      recent[slot] = cached;
    }
    remember(cached);
    return cached;
  }

  private void remember(WeakIdentityTable.Entry<ObjectShadow> entry) {
    switch (nextWay) {
      case 0 -> way0 = entry;
      case 1 -> way1 = entry;
      case 2 -> way2 = entry;
      default -> way3 = entry;
    }
    nextWay = (nextWay + 1) & 3;
  }

  private void resetIfOtherMemory(ShadowMemory memory) {
    if (cacheMemory != memory) {
      way0 = null;
      way1 = null;
      way2 = null;
      way3 = null;
      lastRead = null;
      lastWritten = null;
      previousWritten = null;
      recent = new WeakIdentityTable.Entry[RECENT];
      cacheMemory = memory;
    }
  }

  /**
   * The object's shadow if it has one, without creating it: the caches first (trusted JDK code reads the same
   * nodes and locks over and over), then the table; a shadow found in the table is cached.
   */
  ObjectShadow peekShadow(Object object, ShadowMemory memory) {
    long slot = slotOffset(object.getClass());
    if (slot != ShadowSlots.NONE) {
      return ShadowSlots.peek(object, slot, memory);
    }
    WeakIdentityTable.Entry<ObjectShadow> e = cachedWay(object, memory);
    if (e != null) {
      return e.value;
    }
    if (cacheMemory == memory) {
      @SuppressWarnings("unchecked")
      WeakIdentityTable.Entry<ObjectShadow> cached =
          (WeakIdentityTable.Entry<ObjectShadow>) recent[System.identityHashCode(object) & (RECENT - 1)];
      if (cached != null && cached.refersTo(object)) {
        return cached.value;
      }
    }
    return peekMiss(object, memory);
  }

  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private ObjectShadow peekMiss(Object object, ShadowMemory memory) {
    WeakIdentityTable.Entry<ObjectShadow> found = memory.peekEntry(object);
    if (found == null) {
      return null;
    }
    resetIfOtherMemory(memory);
    recent[System.identityHashCode(object) & (RECENT - 1)] = found;
    return found.value;
  }
}
