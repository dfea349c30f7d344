package dev.racetriage.agent.runtime;

import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;

import dev.racetriage.agent.detect.LocationState;
import dev.racetriage.agent.hb.Epoch;
import dev.racetriage.agent.hb.ThreadState;
import dev.racetriage.agent.hb.SyncClock;

/**
 * The shadow of one program object: the detector's state for each of its checked fields (or, for an array, each
 * element), and its synchronisation clocks: one for its monitor, one per volatile field, and one for atomic
 * operations on it (VarHandle, Unsafe, field updaters — which name no field the agent can see). A volatile read
 * acquires its field's clock and the atomic clock; an atomic acquire takes the atomic clock and every volatile
 * field clock; so plain and atomic accesses to the same volatile field stay ordered, while a volatile read is not
 * ordered after an unrelated monitor exit or volatile write (the JMM does not order those either).
 *
 * <p>Trusted JDK code's volatile field accesses use the atomic clock, as its atomic operations do: a synchronizer's
 * {@code state} is read and written plainly-volatile and CASed, one location to the JMM, and one clock makes each
 * such read a single cover check. The clock is shared by all of the object's volatile fields, which can only add
 * edges between JDK internals (never report a race that is not there); the application's own volatile fields keep
 * a clock each.
 *
 * <p>Lookups are lock-free: slots and element records are published with volatile writes of freshly built arrays;
 * creation takes this object's monitor.
 */
class ObjectShadow {
  private static final int[] NO_IDS = new int[0];
  private static final LocationState[] NO_STATES = new LocationState[0];
  private static final SyncClock[] NO_CLOCKS = new SyncClock[0];

  /**
   * Summary of every write to this object's checked locations: {@link Epoch#BOTTOM} while none, the latest write's
   * epoch while all were made by one thread, {@link #SHARED_WRITES} once two threads wrote. If a reader covers the
   * summary it covers every location's last write (one writer's epochs only grow), so the read needs no per-location
   * lookup. Updated before the write it summarises, so a reader never sees a write the summary does not cover.
   */
  private volatile long writeSummary = Epoch.BOTTOM;
  static final long SHARED_WRITES = -1L;
  /**
   * The thread whose epoch the write summary is, or null — null also while the summary changes hands and after any
   * doubt (a summary taken over by another thread, or shared). Never a thread the summary is not of, for longer than
   * that thread's own update of the summary takes: every change of the summary to another thread or to
   * {@link #SHARED_WRITES} clears it before its compare-and-set and sets it after, and the thread that set it checks
   * the summary again ({@link #claimWriter}). The instrumented code's owned-read guard ({@code Hooks.ownedShadow})
   * compares it with {@code Thread.currentThread()}: a read by the thread that made every write of the object needs
   * no check — exactly {@link #writesCoveredBy}'s first case, without the thread's shadow or a call.
   */
  private volatile Thread writer;
  private volatile SyncClock monitor;
  private volatile SyncClock atomic;
  /**
   * The one thread that ever released on {@link #atomic} (a compare-and-set, a release store), or
   * {@link ShadowSlots#SEVERAL_RELEASERS} once a second one did; null before any ({@link ShadowSlots#nextReleaser}). Kept here, not in the clock, so that a pointer read of an object only
   * its reader ever released ({@link #atomicReleasedOnlyByCurrentThread}) loads no object but this one: a skip list
   * walked by the thread that built it. Fits the object's padding (no larger shadow).
   */
  private volatile Object atomicReleaser;
  private volatile int[] volatileIds = NO_IDS;
  private volatile SyncClock[] volatileClocks = NO_CLOCKS;
  /**
   * The checked fields' states, in the order of first access: the first {@link #fieldCount} entries of the two
   * arrays. Entries are written before the count moves past them and never change; a grown array is a copy, so a
   * reader that read the count first finds every entry below it in whichever arrays it then reads.
   */
  private volatile int[] fieldIds = NO_IDS;
  private volatile LocationState[] fieldStates = NO_STATES;
  private volatile int fieldCount;

  /**
   * Compact owner records: while every write to this object's fields was made by one thread — the owner, whose latest
   * write epoch is the write summary — the object needs only which fields were written, from which sites and at which
   * of the owner's epochs, not a {@code LocationState} each (a value object built in a constructor and then only read,
   * the common case, never gets one; a parser whose thread releases something between its writes keeps them too).
   * Only the owner appends and updates, with plain stores published by {@link #ownCount} (a record's epoch with a
   * volatile store, see {@link #compactWrite}); the first access that needs more (another thread writing, a read that
   * does not cover the summary, a write in a class initialiser) turns them into states under the monitor
   * ({@link #materialize}) for good.
   */
  private volatile boolean compact = true;
  /**
   * The compact records: a hash table of (field id + 1, site) pairs, id word 0 for a free slot (see {@link #ownSlot}).
   * While every record is at the summary's epoch (the owner wrote in one epoch only) that is all, and the table's
   * length is a power of two; from the owner's first write in a later epoch the table also holds each slot's epoch
   * clock after the pairs (length 3 × slots: {@link #slots}), the epoch's thread being the summary's.
   * Written by the owner only; an entry is published by {@link #ownCount}. A reader ({@link #materialize}) scans
   * every slot: it may also see an append in flight, whose writer then sees the turn and writes through the states.
   */
  private int[] own = NO_IDS;
  private volatile int ownCount;
  /**
   * The owned-write stamp, for the guard instrumented code puts before a write hook ({@code Hooks.ownedRewrite}):
   * while the compact records hold, each bit of {@link #stampSites} stands for one guarded write site of the object's
   * class (the instrumenter numbers them, {@code GuardedWrites}) whose field's record is at the write summary's epoch,
   * from that site. A write from that site by the owner in that epoch changes nothing (exactly {@link #rewrite}'s
   * compact case), so the guard skips its hook. Written only by the owner, with plain stores: after a write it
   * recorded, from the records themselves ({@link #stamp}); a record's site change drops the bits of its field's other
   * sites ({@link #rewrite}, {@link #compactWrite}: the guarded site's own mask, or every bit from an unguarded one);
   * every move of the summary to one of the thread's own epochs drops them all ({@link #compactWrite},
   * {@link #updateSummary}), and any other move leaves a summary that is not the owner's epoch. So a set bit is of the
   * summary's epoch, and the guard compares the summary with the thread's epoch. Read only by the owner for its guard
   * ({@link #stamped}, which also asks that the calling thread is the {@link #writer}): its own stores, in program
   * order. Another thread's turn of the records into states is seen by the guard's read of the volatile
   * {@link #compact} flag — only the owner changes records while it is set, so a set flag read after a stamp's bit
   * means the field's record is still that site's, at that epoch. No thread but the one whose epoch the summary is
   * writes the stamp (a thread that takes the summary over clears it, after which the former owner's guard fails at
   * the summary).
   */
  private long stampSites;
  /**
   * The shadow memory this shadow belongs to: a shadow found in an object's slot ({@link ShadowSlots}) is this run's
   * only if it is the current memory's (tests install several runtimes in one JVM).
   */
  final ShadowMemory memory;

  ObjectShadow(ShadowMemory memory) {
    this.memory = memory;
  }

  /**
   * The shadow of an object whose first hooked access is the write of field {@code fieldId} from {@code site} at the
   * writer's epoch {@code now} (outside a class initialiser), made with that write already in it: the summary
   * {@code now} and the field's compact record — what {@link #compactWrite} would store into a fresh shadow, without
   * its compare-and-set of the summary and with a records table sized for the fields earlier objects written from
   * this field's class got ({@link #RECORD_SLOTS}: an iterator's ~20 fields grew its table three times). The stores
   * are plain: the shadow is published by the compare-and-set that installs it in the object's slot
   * ({@code ShadowSlots}), after which everything here is visible to whoever finds it there — a thread that reads the
   * object racily from its constructor finds the summary {@code now} and reports as it would have.
   */
  ObjectShadow(ShadowMemory memory, long now, int fieldId, int site) {
    this.memory = memory;
    int[] table = new int[2 * recordSlots(fieldId)];
    int at = -ownSlot(table, fieldId) - 1;
    table[at + 1] = site;
    table[at] = fieldId + 1;
    own = table;
    WRITE_SUMMARY.set(this, now); // plain: see above
    WRITER.set(this, Thread.currentThread()); // the writing thread: see DetectRuntime.writeField
    OWN_COUNT.set(this, 1);
  }

  /**
   * Per field id: the size (slots) of the largest compact records table an object that recorded the field grew to —
   * a hint for {@link #ObjectShadow(ShadowMemory, long, int, int)}, keyed by the field of the object's first write.
   * Shared by all threads and written racily (an int is never torn; a stale array after a growth is a miss): a wrong
   * hint only costs a growth later or some unused slots, never a record.
   */
  private static int[] RECORD_SLOTS = new int[1024];

  private static int recordSlots(int fieldId) {
    int[] hints = RECORD_SLOTS;
    int hint = fieldId >= 0 && fieldId < hints.length ? hints[fieldId] : 0;
    return hint > 4 ? Math.min(hint, MAX_HINTED_SLOTS) : 4;
  }

  /** A hint never makes a fresh table larger than this (an object with more written fields grows its own). */
  private static final int MAX_HINTED_SLOTS = 64;

  /** Records that objects with the records of {@code table} need a table of its size (at a growth: rare). */
  private static void noteRecordSlots(int[] table) {
    int slots = slots(table);
    for (int k = 0; k < 2 * slots; k += 2) {
      int id = table[k] - 1;
      if (id < 0) {
        continue;
      }
      int[] hints = RECORD_SLOTS;
      if (id >= hints.length) {
        if (id >= 1 << 22) {
          continue; // no hint for absurd ids: the table is an array indexed by them
        }
        hints = java.util.Arrays.copyOf(hints, Math.max(id + 1, hints.length * 2));
        RECORD_SLOTS = hints;
      }
      if (hints[id] < slots) {
        hints[id] = slots;
      }
    }
  }

  /**
   * True if the calling thread made every write to this object recorded so far (see {@link #writer}): its read of any
   * of the object's fields then needs no check.
   */
  @ForceInline // the owned-read guard, inlined into instrumented code
  boolean writtenOnlyByCurrentThread() {
    return writer == Thread.currentThread();
  }

  /**
   * The owned-element guard's test ({@code Hooks.ownedElement}): the calling thread made every write recorded in this
   * (array's) shadow, or no write is recorded — either way a read by it covers them all, the element read's cover
   * check's first cases.
   */
  @ForceInline
  boolean ownedOrUnwrittenByCurrentThread() {
    return writer == Thread.currentThread() || Epoch.isBottom(writeSummary);
  }

  /**
   * The owner's element write ({@code ThreadShadow.ownsElementWrite}): if the write summary is {@code now} — the
   * writing thread's current epoch outside a class initialiser ({@code ThreadState.NO_GUARD_EPOCH}, never a summary,
   * inside one) — and the array's records are flat, or chunked with the element's chunk allocated, element
   * {@code index}'s record becomes ({@code now}, {@code site}) with plain stores, as {@code DetectRuntime.ownedWrite}
   * does, and true is returned (for an array too long to shadow, whose writes record nothing, at once): every
   * earlier write of the array is ordered before this one, so there is nothing to check. False otherwise (the index
   * out of bounds too: the full write then lets the program throw).
   */
  @ForceInline
  boolean ownedElementWrite(int index, int site, long now) {
    if (writeSummary != now || !(this instanceof ArrayShadow a)) {
      return false;
    }
    long[] epochs = a.elementEpochs;
    if (epochs != null) {
      if (index < 0 || index >= epochs.length) {
        return false;
      }
      a.elementSites[index] = site; // the site first, as ownedWrite: a reader that sees the epoch sees its site
      epochs[index] = now;
      return true;
    }
    ElementChunks chunks = a.chunks; // a long array: its element's chunk if allocated (a uniform one is the hook's)
    if (chunks == null) {
      return a.untracked; // an array too long to shadow (counted by its first write's hook): nothing to record
    }
    ElementChunks.Chunk k = index >= 0 && index < chunks.length ? chunks.chunk(index >>> ElementChunks.SHIFT) : null;
    if (k == null) {
      return false;
    }
    k.sites[index & ElementChunks.MASK] = site;
    k.epochs[index & ElementChunks.MASK] = now;
    return true;
  }

  /** The thread whose epoch the write summary is, or null (see {@link #writer}). */
  Thread writerThread() {
    return writer;
  }

  /**
   * After this thread's compare-and-set made the summary {@code epoch} (its own): the writer is this thread, unless
   * the summary has changed hands since — then nobody (a later change of the summary by another thread clears the
   * writer after its own compare-and-set, so whichever store comes last is right).
   */
  private void claimWriter(long epoch) {
    writer = Thread.currentThread();
    long now = writeSummary;
    if (now != epoch && (Epoch.isBottom(now) || now == SHARED_WRITES || Epoch.tid(now) != Epoch.tid(epoch))) {
      writer = null;
    }
  }

  /** The write summary: ⊥, one thread's latest write epoch, or {@link #SHARED_WRITES}. */
  long summary() {
    return writeSummary;
  }

  /** True once two unordered threads wrote this object: every location is then checked on its own. */
  boolean sharedWrites() {
    return writeSummary == SHARED_WRITES;
  }

  /**
   * True if every write to this object so far is ordered before the calling thread's current one — the caller's
   * epoch {@code now}, after {@link #noteWrite}: the summary is then exactly {@code now}.
   */
  boolean writtenOnlyAt(long now) {
    return writeSummary == now;
  }



  /**
   * {@link #allWritesCoveredBy} for the read hook's cover check (see {@code Hooks.readField}), the owner first: a
   * summary that is one of the reader's own epochs is covered without reading its clock (a thread's own clock entry
   * only grows, and a recycled thread id starts above every value its former thread had, see
   * {@code HappensBefore}); otherwise the same cover check.
   */
  @ForceInline // the read hook's fast path
  boolean writesCoveredBy(ThreadState reader) {
    long summary = writeSummary;
    return Epoch.tid(summary) == reader.tid() || summary != SHARED_WRITES && reader.clock().covers(summary);
  }

  /**
   * The write hook's check (see {@code Hooks.writeField}): true if a write of field {@code fieldId} from {@code site}
   * by the thread whose current epoch is {@code now} (outside a class initialiser) leaves nothing to check or record —
   * exactly the cases in which {@code DetectRuntime.writeField} would change nothing but a site: while the compact
   * records hold, the summary is {@code now} and the field has a record (its site updated here, as
   * {@link #compactWrite} does: a later report names this write's site); once they are states, the summary is
   * {@code now} or shared and the field's state already holds {@code now} from {@code site}
   * ({@code HSummaryDetector.write}'s first test). False for anything else: the hook then takes the full write.
   *
   * <p>The summary is read before the flag: only the owner moves the summary to one of its epochs, and no other
   * thread can cover {@code now} while the owner is still in that epoch, so a summary of {@code now} read here
   * can only have become shared since — after the records were turned into states at {@code now}, which the state
   * branch then checks. A site stored into the records while another thread turns them into states may be lost (the
   * report names the field's previous site in the same epoch), as in {@link #compactWrite}; an epoch never is.
   *
   * <p>For the owned-write guard (see {@link #stampSites}): a record's site change keeps only the stamp's bits in
   * {@code keep}, and a write settled while the records hold sets the guarded site's {@code bit} (0: none) — what
   * {@link #stamp} would set, without probing the records again (the guard's miss at a site whose field's record
   * another site wrote last: an iterator's flag set in two methods).
   */
  @ForceInline // into the write hook: loads and compares, no call
  boolean rewrite(long now, int fieldId, int site, long keep, long bit) {
    long summary = writeSummary;
    if (compact) {
      if (summary != now) {
        return false;
      }
      int[] table = own;
      int at = ownSlot(table, fieldId);
      if (at < 0 || hasClocks(table) && table[clockAt(table, at)] != Epoch.clock(now)) {
        return false; // a new field, or one last written in an earlier epoch: compactWrite dates it
      }
      if (table[at + 1] != site) {
        table[at + 1] = site;
        dropStamps(keep);
        if (!compact) {
          return false; // turned into states meanwhile: the full write sets the state's site
        }
      }
      if (bit != 0) {
        stampSites |= bit; // the summary is now: the records hold this write (see stamp)
      }
      return true;
    }
    if (summary != now && summary != SHARED_WRITES) {
      return false;
    }
    int i = fieldIndex(fieldId);
    return i >= 0 && fieldStates[i].repeats(now, site);
  }

  /**
   * The owned-write guard's test ({@code Hooks.ownedRewrite}), after its site's bit was found set
   * ({@link #anyStamped}): true if the write summary is the calling thread's current epoch {@code now} (so the bit is
   * of that epoch), the calling thread is the writer (the stamp's owner) and the records still hold — so a write from
   * that site changes nothing.
   */
  @ForceInline // the owned-write guard, inlined into instrumented code
  boolean stamped(long now) {
    return writeSummary == now && writer == Thread.currentThread() && compact;
  }

  /** True if the guarded site's bit {@code bit} is set (the guard's first load). */
  @ForceInline
  boolean anyStamped(long bit) {
    return (stampSites & bit) != 0;
  }

  /**
   * After the calling thread's write of field {@code fieldId} from the guarded site {@code bit} at its epoch
   * {@code now} was recorded: sets the site's bit if the records say so — compact, the summary {@code now} (so the
   * calling thread is the owner), the field's record at {@code now} from {@code site}. Read from the records, not
   * assumed from the path the write took, so any write path may precede it. Records turned into states drop the
   * stamp here, so that the guard fails at its first load.
   */
  void stamp(long now, int fieldId, int site, long bit) {
    if (!compact || writeSummary != now) {
      if (!compact && writer == Thread.currentThread()) {
        stampSites = 0;
      }
      return;
    }
    int[] table = own;
    int at = ownSlot(table, fieldId);
    if (at < 0 || table[at + 1] != site || hasClocks(table) && table[clockAt(table, at)] != Epoch.clock(now)) {
      return;
    }
    stampSites |= bit;
  }

  /** A record's site changed: only the bits in {@code keep} (the other fields' sites) stay. Owner only. */
  private void dropStamps(long keep) {
    long bits = stampSites;
    if ((bits & ~keep) != 0) {
      stampSites = bits & keep;
    }
  }

  /** True if every write to this object so far happens-before {@code reader}'s current clock. */
  boolean allWritesCoveredBy(ThreadState reader) {
    long summary = writeSummary;
    return summary != SHARED_WRITES && reader.clock().covers(summary);
  }

  /**
   * Records a write by t about to be made at {@code epoch} (t's current epoch; call before the detector sees the
   * write).
   */
  void noteWrite(ThreadState t, long epoch) {
    long summary = writeSummary;
    if (summary != epoch && summary != SHARED_WRITES) {
      updateSummary(t, epoch);
    }
  }

  /**
   * A compare-and-set loop, not a monitor: a single writer moves its summary at every new epoch (each release it
   * makes), so the update runs once per object per epoch — a monitor's enter and exit were 5 % of a lock-heavy
   * single-threaded run. A writer that covers the summary takes it over: every earlier write happens-before its write
   * (one thread's epochs only grow, and each takeover was such a write), so a reader that covers the new writer's
   * epoch covers them all — the handoff of an object or array from the thread that filled it to a worker keeps the
   * summary.
   */
  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private void updateSummary(ThreadState t, long epoch) {
    for (;;) {
      long summary = writeSummary;
      long next;
      if (summary == SHARED_WRITES) {
        return;
      } else if (Epoch.isBottom(summary)) {
        next = epoch;
      } else if (Epoch.tid(summary) == Epoch.tid(epoch)) {
        if (Epoch.clock(epoch) <= Epoch.clock(summary)) {
          return;
        }
        next = epoch;
      } else if (t.clock().covers(summary)) {
        next = epoch;
      } else {
        next = SHARED_WRITES;
      }
      boolean handOver = Epoch.isBottom(summary) || Epoch.tid(summary) != Epoch.tid(epoch);
      if (handOver) {
        writer = null; // before the summary leaves its thread: that thread's reads are checked from here on
      }
      if (WRITE_SUMMARY.compareAndSet(this, summary, next)) {
        if (next == SHARED_WRITES) {
          writer = null; // after too: a claim racing with this change may have stored its thread meanwhile
          return;
        }
        stampSites = 0; // the summary is this thread's new epoch (see stampSites)
        if (handOver) {
          claimWriter(next);
        }
        return;
      }
    }
  }

  private static final java.lang.invoke.VarHandle WRITE_SUMMARY;
  private static final java.lang.invoke.VarHandle ATOMIC;
  private static final java.lang.invoke.VarHandle ATOMIC_RELEASER;
  private static final java.lang.invoke.VarHandle OWN_COUNT;
  private static final java.lang.invoke.VarHandle WRITER;

  static {
    try {
      WRITE_SUMMARY = java.lang.invoke.MethodHandles.lookup().findVarHandle(ObjectShadow.class, "writeSummary",
          long.class);
      OWN_COUNT = java.lang.invoke.MethodHandles.lookup().findVarHandle(ObjectShadow.class, "ownCount", int.class);
      WRITER = java.lang.invoke.MethodHandles.lookup().findVarHandle(ObjectShadow.class, "writer", Thread.class);
      ATOMIC = java.lang.invoke.MethodHandles.lookup().findVarHandle(ObjectShadow.class, "atomic", SyncClock.class);
      ATOMIC_RELEASER = java.lang.invoke.MethodHandles.lookup().findVarHandle(ObjectShadow.class, "atomicReleaser",
          Object.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }


  SyncClock monitor() {
    SyncClock clock = monitor;
    return clock != null ? clock : createMonitor();
  }

  SyncClock monitorIfReleased() {
    return monitor;
  }

  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private synchronized SyncClock createMonitor() {
    if (monitor == null) {
      monitor = new SyncClock();
    }
    return monitor;
  }

  SyncClock atomic() {
    SyncClock clock = atomic;
    return clock != null ? clock : createAtomic();
  }

  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private SyncClock createAtomic() {
    // a compare-and-set, not the monitor: a skip list's insert makes one per node
    SyncClock fresh = new SyncClock();
    SyncClock won = (SyncClock) ATOMIC.compareAndExchange(this, (SyncClock) null, fresh);
    return won != null ? won : fresh;
  }

  /**
   * Records the calling thread as a releaser on the atomic clock, after its release and before the program's atomic
   * operation itself (so whoever sees that operation's effect sees this), as {@link ShadowSlots#noteReleaser} does in
   * an object's own releaser field; the common case, the same thread again, is one load.
   */
  void noteAtomicReleaser() {
    Thread me = Thread.currentThread();
    for (;;) {
      Object r = atomicReleaser;
      Object next = ShadowSlots.nextReleaser(r, me);
      if (next == r || ATOMIC_RELEASER.compareAndSet(this, r, next)) {
        return;
      }
    }
  }

  /**
   * True if every release on the atomic clock so far was the calling thread's: the atomic clock is then a join of
   * clocks this thread had, which its clock covers — an acquire of it changes nothing. False before any release.
   */
  @ForceInline
  boolean atomicReleasedOnlyByCurrentThread() {
    return atomicReleaser == Thread.currentThread();
  }

  /** The atomic clock, or null if no atomic operation released on this object yet (nothing to acquire). */
  SyncClock atomicIfReleased() {
    return atomic;
  }

  /** The clock of volatile field {@code fieldId}, or null if it was never released (nothing to acquire). */
  SyncClock volatileFieldIfReleased(int fieldId) {
    SyncClock[] clocks = volatileClocks;
    int[] ids = volatileIds;
    int n = Math.min(ids.length, clocks.length);
    for (int i = 0; i < n; i++) {
      if (ids[i] == fieldId) {
        return clocks[i];
      }
    }
    return null;
  }

  /**
   * True if a read of volatile field {@code fieldId} by {@code reader} (the calling thread's state) would change
   * nothing: the field's clock was never released or is covered by the reader's clock, and so is the atomic clock
   * (see {@link #atomicClockCoveredBy}) — {@code DetectRuntime.volatileRead}'s acquires, each skipped by its own first
   * test.
   */
  @ForceInline
  boolean volatileReadCoveredBy(int fieldId, dev.racetriage.agent.hb.ThreadState reader) {
    SyncClock field = volatileFieldIfReleased(fieldId);
    return (field == null || dev.racetriage.agent.hb.HappensBefore.covers(reader, field))
        && atomicClockCoveredBy(reader);
  }

  /** The clock of volatile field {@code fieldId} of this object. */
  SyncClock volatileField(int fieldId) {
    SyncClock[] clocks = volatileClocks;
    int[] ids = volatileIds;
    int n = Math.min(ids.length, clocks.length);
    for (int i = 0; i < n; i++) {
      if (ids[i] == fieldId) {
        return clocks[i];
      }
    }
    return addVolatile(fieldId);
  }

  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private synchronized SyncClock addVolatile(int fieldId) {
    int[] ids = volatileIds;
    for (int i = 0; i < ids.length; i++) {
      if (ids[i] == fieldId) {
        return volatileClocks[i];
      }
    }
    int n = ids.length;
    SyncClock clock = new SyncClock();
    SyncClock[] newClocks = java.util.Arrays.copyOf(volatileClocks, n + 1);
    newClocks[n] = clock;
    int[] newIds = java.util.Arrays.copyOf(ids, n + 1);
    newIds[n] = fieldId;
    volatileClocks = newClocks;
    volatileIds = newIds;
    return clock;
  }

  /** The volatile field clocks created so far (an atomic acquire takes them all). */
  SyncClock[] volatileClocks() {
    return volatileClocks;
  }

  /** True while no volatile field of the object has a clock of its own (an acquire of it is the atomic clock's). */
  @ForceInline
  boolean noVolatileClocks() {
    return volatileClocks.length == 0;
  }

  /**
   * True if an atomic acquire of the object by {@code reader} (the calling thread's state) would change nothing: no
   * volatile field has a clock of its own, and the atomic clock was only released on by the calling thread, or never,
   * or is covered by the reader's clock.
   */
  @ForceInline
  boolean atomicAcquireCoveredBy(dev.racetriage.agent.hb.ThreadState reader) {
    return noVolatileClocks() && atomicClockCoveredBy(reader);
  }

  /**
   * True if an acquire of the atomic clock alone by {@code reader} (the calling thread's state) would change nothing:
   * it was only released on by the calling thread, or never, or is covered by the reader's clock.
   */
  @ForceInline
  boolean atomicClockCoveredBy(dev.racetriage.agent.hb.ThreadState reader) {
    if (atomicReleasedOnlyByCurrentThread()) {
      return true;
    }
    SyncClock clock = atomic;
    return clock == null || dev.racetriage.agent.hb.HappensBefore.covers(reader, clock);
  }

  /**
   * The owner's write of field {@code fieldId} from {@code site} at its epoch {@code now}, kept in the compact records
   * if they still describe the object (the summary is ⊥, or one of this thread's epochs: {@code now}, or an earlier
   * one — every earlier write is then this thread's, ordered before this one by program order); false if the write
   * must go through the field's state.
   *
   * <p>At the owner's first write in a later epoch the table gains the records' clocks, each the old summary's, before
   * the summary moves: a thread that turns the records into states reads the summary first, then the table, so it
   * never dates an earlier write at the later epoch (which could hide nothing, but would report a read ordered after
   * the earlier write as a race). A record's clock is stored with a volatile store, and {@link #compact} read after it:
   * either the turning thread, which clears {@code compact} before reading the table, sees the clock, or this write
   * sees the turn and goes through the states too.
   */
  boolean compactWrite(long now, int fieldId, int site, long keep) {
    if (!compact) {
      return false;
    }
    long summary = writeSummary;
    int[] table = own;
    if (summary != now) {
      if (Epoch.isBottom(summary)) {
        if (!WRITE_SUMMARY.compareAndSet(this, summary, now)) {
          return false;
        }
        stampSites = 0; // a new epoch of the summary: no bit is of it yet
        claimWriter(now);
      } else if (summary != SHARED_WRITES && Epoch.tid(summary) == Epoch.tid(now)
          && Epoch.clock(now) > Epoch.clock(summary)) {
        if (!hasClocks(table) && ownCount > 0) {
          table = withClocks(table, Epoch.clock(summary));
          own = table; // published by the compare-and-set below, before the summary moves
        }
        if (!WRITE_SUMMARY.compareAndSet(this, summary, now)) {
          return false;
        }
        stampSites = 0; // the owner's later epoch: its bits were of the earlier one
      } else {
        return false;
      }
    }
    int at = ownSlot(table, fieldId);
    if (at >= 0) {
      if (table[at + 1] != site) {
        table[at + 1] = site;
        dropStamps(keep);
      }
      if (hasClocks(table)) {
        int word = clockAt(table, at);
        if (table[word] != Epoch.clock(now)) {
          RECORD_WORD.setVolatile(table, word, Epoch.clock(now));
        }
      }
      return compact; // turned into states meanwhile: write it there too
    }
    int n = ownCount;
    int slots = slots(table);
    if (4 * (n + 1) > 3 * slots) { // at most 3/4 full; also the shared empty table, never written
      table = rehash(table, Math.max(4, 2 * slots), hasClocks(table));
      at = ownSlot(table, fieldId);
      if (slots(table) > 4) {
        noteRecordSlots(table);
      }
    }
    at = -at - 1;
    table[at + 1] = site;
    if (hasClocks(table)) {
      table[clockAt(table, at)] = Epoch.clock(now);
    }
    table[at] = fieldId + 1;
    own = table;
    ownCount = n + 1;
    return compact;
  }

  /** A copy of a pairs-only records table with each slot's clock {@code clock} (the summary's, see compactWrite). */
  private static int[] withClocks(int[] table, int clock) {
    int slots = slots(table);
    int[] copy = java.util.Arrays.copyOf(table, 3 * slots);
    java.util.Arrays.fill(copy, 2 * slots, 3 * slots, clock);
    return copy;
  }

  /**
   * The compact records' table slot of {@code fieldId} (the index of its id word), or {@code -(free slot) - 1}.
   * Open addressing with linear probing, indexed by the id's low bits: a class's field ids are mostly consecutive, so
   * an object's written fields rarely collide, and a write finds its record at the first probe — a linear search of
   * an iterator's ~20 records on every {@code next()} was 9 % of a getter-heavy run. The table is never full.
   */
  private static int ownSlot(int[] table, int fieldId) {
    int slots = slots(table);
    if (slots == 0) {
      return -1; // "free at 0": the caller grows the empty table first
    }
    int mask = slots - 1;
    for (int k = fieldId & mask;; k = (k + 1) & mask) {
      int id = table[2 * k];
      if (id == fieldId + 1) {
        return 2 * k;
      }
      if (id == 0) {
        return -2 * k - 1;
      }
    }
  }

  /**
   * The slots of a records table: half its length while it holds pairs only (a power of two), a third once it holds
   * their epochs' clocks too (3 × a power of two).
   */
  private static int slots(int[] table) {
    int length = table.length;
    return (length & (length - 1)) == 0 ? length >>> 1 : length / 3;
  }

  /**
   * The index of the clock of the record whose id word is at {@code at}, in a table that holds clocks
   * ({@link #hasClocks}): its length is then 3 × slots, and the clocks follow the pairs.
   */
  private static int clockAt(int[] table, int at) {
    return 2 * (table.length / 3) + (at >>> 1);
  }

  /** True if the records table holds each slot's epoch clock (after its pairs). */
  private static boolean hasClocks(int[] table) {
    int length = table.length;
    return (length & (length - 1)) != 0;
  }

  /** The records in a table of {@code slots} slots, with clocks if {@code clocks} (owner only; see compactWrite). */
  private static int[] rehash(int[] table, int slots, boolean clocks) {
    int[] grown = new int[(clocks ? 3 : 2) * slots];
    int oldSlots = slots(table);
    boolean hadClocks = hasClocks(table);
    for (int k = 0; k < 2 * oldSlots; k += 2) {
      if (table[k] != 0) {
        int at = -ownSlot(grown, table[k] - 1) - 1;
        grown[at] = table[k];
        grown[at + 1] = table[k + 1];
        if (clocks && hadClocks) {
          grown[clockAt(grown, at)] = table[clockAt(table, k)];
        }
      }
    }
    return grown;
  }

  private static final java.lang.invoke.VarHandle RECORD_WORD =
      java.lang.invoke.MethodHandles.arrayElementVarHandle(int[].class);

  /** True while the compact owner records describe the object's writes. */
  boolean compact() {
    return compact;
  }

  /**
   * Turns the compact owner records into field states: each written field's last write is its record's epoch (the
   * summary's while the table has no clocks), at its site, by the owner ({@code writerName}). Idempotent; afterwards
   * every write goes through the states. The summary is read before the table (see {@link #compactWrite}).
   */
  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  synchronized void materialize(FieldRegistry registry, String writerName) {
    if (!compact) {
      return;
    }
    compact = false; // the owner's next write takes the states' path (and the owned-write guard settles nothing)
    long epoch = writeSummary;
    int n = ownCount; // read before the table: every record below the count is in the table read after it
    int[] table = own;
    int slots = slots(table);
    boolean clocks = hasClocks(table);
    for (int k = 0; n > 0 && k < 2 * slots; k += 2) {
      int id = table[k] - 1;
      if (id >= 0 && fieldIndex(id) < 0) {
        long written = clocks
            ? Epoch.of(Epoch.tid(epoch), (int) RECORD_WORD.getVolatile(table, clockAt(table, k))) : epoch;
        appendField(id, new LocationState(registry.key(id), written, table[k + 1], writerName));
      }
    }
  }

  /**
   * The index of field {@code fieldId} among the first {@link #fieldCount} entries, or -1. The count is read first:
   * every entry below it is in whichever arrays are read after it.
   */
  private int fieldIndex(int fieldId) {
    int n = fieldCount;
    int[] ids = fieldIds;
    for (int i = 0; i < n; i++) {
      if (ids[i] == fieldId) {
        return i;
      }
    }
    return -1;
  }

  LocationState field(int fieldId, FieldRegistry registry) {
    int i = fieldIndex(fieldId);
    return i >= 0 ? fieldStates[i] : addField(fieldId, registry);
  }

  /**
   * Appends the field's state: into the spare capacity (grown by doubling), then publishes it by moving
   * {@link #fieldCount}. A copy-on-write array per new field made an object's first writes quadratic and allocated
   * two arrays per field: a constructor setting twenty fields copied 400 entries.
   */
  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private synchronized LocationState addField(int fieldId, FieldRegistry registry) {
    int i = fieldIndex(fieldId);
    return i >= 0 ? fieldStates[i] : appendField(fieldId, new LocationState(registry.key(fieldId)));
  }

  /** Appends a field's state (under the monitor). */
  private LocationState appendField(int fieldId, LocationState state) {
    int n = fieldCount;
    int[] ids = fieldIds;
    LocationState[] states = fieldStates;
    if (n == ids.length) {
      int capacity = Math.max(4, n * 2);
      states = java.util.Arrays.copyOf(states, capacity);
      ids = java.util.Arrays.copyOf(ids, capacity);
    }
    states[n] = state;
    ids[n] = fieldId;
    fieldStates = states;
    fieldIds = ids;
    fieldCount = n + 1;
    return state;
  }


  // ---- arrays: the element records live in ArrayShadow, the shadow every array gets ----

  /**
   * The flat element epochs of a short array, or null if no element was written yet, or the array's records are
   * chunked ({@link #elementChunks()}), or it is untracked, or this is no array.
   */
  long[] elementEpochs() {
    return this instanceof ArrayShadow a ? a.elementEpochs : null;
  }

  /** The element sites (read after {@link #elementEpochs()}). */
  int[] elementSites() {
    return this instanceof ArrayShadow a ? a.elementSites : null;
  }

  /** The chunked element records of a long array, or null (not written yet, short, untracked, or no array). */
  ElementChunks elementChunks() {
    return this instanceof ArrayShadow a ? a.chunks : null;
  }

  /**
   * Allocates the element records on first use (flat or chunked by the array's length); false for an array too long
   * to shadow (then {@link #untrackedArray}). {@code unnamedKey}: the key an array no field was seen to hold is
   * reported under (the first writer's method).
   */
  boolean records(Object array, String unnamedKey, int maxElements) {
    return this instanceof ArrayShadow a && a.allocate(array, unnamedKey, maxElements);
  }

  /** The key element races are reported under: the array's field, or the method of its first write, or this. */
  String elementKey(String unnamedKey) {
    return this instanceof ArrayShadow a ? a.key(unnamedKey) : unnamedKey;
  }

  /** See {@link ArrayShadow#repeats}; false for an object that is no array. */
  boolean rangeRepeats(long now, int from, int to, int site) {
    return this instanceof ArrayShadow a && a.repeats(now, from, to, site) && writeSummary == now;
  }

  /** Every element of {@code [from, to)} was just written at {@code now} from {@code site} by the calling thread. */
  void noteRange(long now, int from, int to, int site) {
    if (this instanceof ArrayShadow a) {
      a.range(now, from, to, site);
    }
  }

  /** True the first time it is called for an untracked array: it is counted once. */
  boolean markCounted() {
    return this instanceof ArrayShadow a && a.firstCount();
  }

  /** True if this is an array too long to shadow element by element. */
  boolean untrackedArray() {
    return this instanceof ArrayShadow a && a.untracked;
  }

  void noteArrayKey(String key) {
    if (this instanceof ArrayShadow a && a.arrayKey == null) {
      a.arrayKey = key; // the first field an array is seen in names it; a benign race between two namers
    }
  }

  String arrayKey() {
    return this instanceof ArrayShadow a ? a.arrayKey : null;
  }

  /**
   * A new shadow for {@code object}: an {@link ArrayShadow} for an array (arrays have no slot, see ShadowSlots), a
   * {@link ContainerShadow} for a modelled JDK container, a plain one otherwise.
   */
  static ObjectShadow of(Object object, ShadowMemory memory) {
    Class<?> type = object.getClass();
    return type.isArray() ? new ArrayShadow(memory)
        : dev.racetriage.agent.instrument.ContainerModel.isModelled(type) ? new ContainerShadow(memory)
        : new ObjectShadow(memory);
  }

  /** As {@link #of}, for an object whose class has a slot ({@code ShadowSlots}): never an array. */
  static ObjectShadow forSlot(Object object, ShadowMemory memory) {
    return dev.racetriage.agent.instrument.ContainerModel.isModelled(object.getClass()) ? new ContainerShadow(memory)
        : new ObjectShadow(memory);
  }

  /** As {@link #forSlot}, made with a first write in it (see {@link #ObjectShadow(ShadowMemory, long, int, int)}). */
  static ObjectShadow forSlot(Object object, ShadowMemory memory, long now, int fieldId, int site) {
    return dev.racetriage.agent.instrument.ContainerModel.isModelled(object.getClass())
        ? new ContainerShadow(memory, now, fieldId, site) : new ObjectShadow(memory, now, fieldId, site);
  }

  /**
   * The shadow of a modelled JDK container ({@code ContainerHooks}): the base's state (its pseudo-field's record) plus
   * its names. A container is named after the field first seen holding it ({@code pkg.Cls.cache{}}), or, while no
   * field has held it, after the method of its first modelled call ({@code pkg.Cls.method(){}}). The names used to
   * live in two weak tables of their own, keyed by the container: two more entries, two more weak references for the
   * collector and a table probe per call for a container no field held — on a real suite's short-lived lists (a
   * recursive substitution's list of the variables it has seen) a quarter of all weak-table entries. Kept here, they
   * cost nothing but the shadow the container's pseudo-field needs anyway, and die with it.
   */
  static final class ContainerShadow extends ObjectShadow {
    /** The id of the field first seen holding the container, plus one; 0 while none has. Set once. */
    private volatile int holder;
    /** The pseudo-field id it was named under while no field held it, plus two; 0 until its first call. Set once. */
    private volatile int unnamed;

    ContainerShadow(ShadowMemory memory) {
      super(memory);
    }

    ContainerShadow(ShadowMemory memory, long now, int fieldId, int site) {
      super(memory, now, fieldId, site);
    }

    /** The field id of the first field seen holding the container, or -1 if none has. */
    int holder() {
      return holder - 1;
    }

    /** Names the container after {@code fieldId} unless a field already does; returns the holder's field id. */
    int hold(int fieldId) {
      int h = holder;
      return h != 0 ? h - 1 : holdFirst(fieldId); // set once: no monitor once it is
    }

    private synchronized int holdFirst(int fieldId) {
      if (holder == 0) {
        holder = fieldId + 1;
      }
      return holder - 1;
    }

    /** True once the container has an unnamed id (see {@link #unnamed}). */
    boolean hasUnnamed() {
      return unnamed != 0;
    }

    /** Its unnamed pseudo-field id (-1: its first call's site was not known). Read after {@link #hasUnnamed}. */
    int unnamed() {
      return unnamed - 2;
    }

    /** Sets the unnamed pseudo-field id unless one is set; returns the one that is. */
    synchronized int nameUnnamed(int id) {
      if (unnamed == 0) {
        unnamed = id + 2;
      }
      return unnamed - 2;
    }
  }

  /**
   * The shadow of an array: the base's state (its monitor, its summary) plus the element records. Objects, the
   * most numerous, then carry none of these fields: a skip list's node or a small value object's shadow is 24 bytes
   * smaller.
   */
  static final class ArrayShadow extends ObjectShadow {
    /** For an array: the key of the field it was last loaded from or stored to, e.g. {@code pkg.Cls.slots[]}. */
    private volatile String arrayKey;

    /**
     * An array's element states, flat: each element's last write epoch ({@link Epoch#BOTTOM}: never written, or written
     * in a class initialiser) here, its site in {@link #elementSites}. Allocated at the first element write. While the
     * write summary is a thread's epoch (the writes are totally ordered so far, see {@link #noteWrite}) only that thread
     * (the owner) writes them, with plain stores: no other write can be unordered with its write, so there is nothing to
     * check, and a hoisted loop's range write is two {@code Arrays.fill}s. Once the summary is {@link #SHARED_WRITES} the
     * same records are each element's h-summary state, written under a per-element lock — the epoch's top bit, as in
     * {@code LocationState} — by {@code DetectRuntime}. 12 bytes an element, no object per element. Only arrays of
     * at most {@link #FLAT_MAX} elements have flat records, and longer ones up to {@link #GRANTED_FLAT_MAX} while the
     * shadow memory grants them; the others' are kept per chunk ({@link #chunks}).
     */
    private volatile long[] elementEpochs;
    /** The site of each element's last write; set before {@link #elementEpochs} is published. */
    private int[] elementSites;
    /** A long array's element records, per chunk of 64 elements allocated at its first element write. */
    private volatile ElementChunks chunks;
    /** An array too long to shadow: its elements go unchecked (and counted). */
    private volatile boolean untracked;
    /** The key of an unnamed array: named after the method of its first element write (see {@link #elementKey}). */
    private volatile String firstKey;
    private boolean counted;
    private volatile WrittenRange lastRange;

    ArrayShadow(ShadowMemory memory) {
      super(memory);
    }

    /** Arrays up to this long get flat records (a chunk directory would cost more than it saves). */
    static final int FLAT_MAX = 2 * ElementChunks.SIZE;
    /**
     * Arrays up to this long get flat records too while the shadow memory's grant lasts
     * ({@link ShadowMemory#grantFlat}): a chunk costs a strided sweep (a matrix's rows, read and written column by
     * column) an extra load and branch per element, about a third of the sweep under the agent.
     */
    static final int GRANTED_FLAT_MAX = 1 << 16;

    @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
    synchronized boolean allocate(Object array, String unnamedKey, int maxElements) {
      if (elementEpochs == null && chunks == null && !untracked) {
        if (firstKey == null) {
          firstKey = unnamedKey;
        }
        int length = java.lang.reflect.Array.getLength(array);
        if (length > maxElements) { // the agent's arrays= bound
          untracked = true;
          return false;
        }
        if (length > FLAT_MAX && (length > GRANTED_FLAT_MAX || !memory.grantFlat(length))) {
          chunks = new ElementChunks(length);
        } else {
          elementSites = new int[length];
          elementEpochs = new long[length];
        }
      }
      return !untracked;
    }

    String key(String unnamedKey) {
      String key = arrayKey;
      if (key == null) {
        key = firstKey;
      }
      return key != null ? key : unnamedKey;
    }

    /**
     * True if a range write of {@code [from, to)} at {@code now} from {@code site} would change nothing: the last
     * range write covered it with the same epoch and site, and every write to this array since was the same thread's
     * at the same epoch (the write summary is still {@code now}, checked by the caller; a write by another thread
     * makes it shared before the write happens). Each element then still holds that write — unless the thread wrote
     * it again in this epoch from another site, which a report would then name instead (a write of that element in
     * the same epoch all the same). Turns a loop that rewrites one row per outer iteration (a matrix multiply) into
     * one check per row.
     */
    boolean repeats(long now, int from, int to, int site) {
      WrittenRange r = lastRange;
      return r != null && r.epoch == now && r.site == site && from >= r.from && to <= r.to;
    }

    void range(long now, int from, int to, int site) {
      WrittenRange r = lastRange;
      if (r == null || r.epoch != now || r.site != site || r.from != from || r.to != to) {
        lastRange = new WrittenRange(now, from, to, site);
      }
    }

    synchronized boolean firstCount() {
      boolean first = !counted;
      counted = true;
      return first;
    }
  }

  /**
   * The elements {@code [from, to)} a hoisted loop's range write left at {@code epoch} and {@code site} (each one's
   * last write). Immutable, replaced as a whole.
   */
  private static final class WrittenRange {
    final long epoch;
    final int from;
    final int to;
    final int site;

    WrittenRange(long epoch, int from, int to, int site) {
      this.epoch = epoch;
      this.from = from;
      this.to = to;
      this.site = site;
    }
  }
}
