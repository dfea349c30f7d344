package dev.racetriage.agent.runtime;

import dev.racetriage.agent.hb.ThreadState;
import dev.racetriage.agent.jumble.AdversarialMemory;
import dev.racetriage.agent.jumble.FieldStats;
import dev.racetriage.agent.jumble.JumbleConfig;
import dev.racetriage.agent.jumble.ReadHeuristics;
import dev.racetriage.agent.jumble.WriteBuffer;
import java.util.List;
import java.util.function.Function;

/**
 * Jumble mode: the write buffers of the locations under trial, created lazily on each location's first hooked access
 * — per object for an instance field (weakly keyed: a buffer never keeps its object alive), one per static field,
 * and per sampled index of each array held in a jumbled array field. The happens-before clocks come from the
 * {@link DetectRuntime}, which still receives every synchronisation event exactly as in detect mode.
 *
 * <p>A buffer's initial entry (value@⊥) is the location's value when the buffer is created: the field's default, or
 * what code the agent did not see (a constructor before {@code super()}, reflection, {@code clone}) stored there.
 */
public final class JumbleRuntime {
  private final DetectRuntime detect;
  private final JumbleTargets targets;
  private final int[] indices;
  private final Function<Object, WriteBuffer[]> newSlots;
  /**
   * Everything one run of a test owns: replaced as a whole by {@link #beginRun}, so a test repeated in one JVM starts
   * each run with no buffer, no "last value read" and fresh counters. A hook reads this field once per access; a
   * straggler thread of the previous run that is still inside a hook finishes on the old state, which nobody reads.
   */
  private volatile RunState run;

  /**
   * @param indices the array elements sampled in each jumbled array
   * @param noise   schedule noise at jumbled accesses, or null for none
   */
  public JumbleRuntime(DetectRuntime detect, JumbleTargets targets, JumbleConfig config, int[] indices,
                       ScheduleNoise noise) {
    this.detect = detect;
    this.targets = targets;
    this.indices = indices.clone();
    this.newSlots = new SlotsFactory(targets.keys().size());
    this.run = new RunState(new AdversarialMemory(detect.engine(), config), noise, targets.keys().size());
    this.heuristic = config.heuristic().name();
    // constant cost per repeated run: joined threads' ids are handed out again, so clocks do not widen run by run
    detect.engine().recycleJoinedThreads();
  }

  /** Thread ids handed out so far: with recycling, about the threads alive at once, not every thread ever started. */
  public int threadIds() {
    return detect.engine().threadCount();
  }

  /**
   * Starts a new run of the program under trial in this JVM (the launcher's trial server calls it before each run of
   * the test): every write buffer, every location's "last value read" and every counter of the previous run is
   * dropped, and reads are served by {@code heuristic} seeded with {@code seed}; bound, fairness and sampled indices
   * stay as the agent options set them. The happens-before clocks are kept: they describe threads, not runs, and a
   * new buffer starts from each location's value at its first access in this run (value@⊥), as at start-up.
   *
   * @throws IllegalArgumentException for an unknown heuristic name (the current run is left as it was)
   */
  public void beginRun(String heuristic, long seed, boolean withNoise) {
    JumbleConfig now = run.memory.config();
    JumbleConfig config = new JumbleConfig(ReadHeuristics.byName(ContainerTrials.memoryHeuristic(heuristic)), seed,
        now.bound(), now.fairnessLimit(), now.splitWide());
    run = new RunState(new AdversarialMemory(detect.engine(), config), withNoise ? new ScheduleNoise(seed) : null,
        targets.keys().size());
    this.heuristic = heuristic;
    ContainerTrials.begin(targets, heuristic, seed);
  }

  /** The heuristic of the current run: a read heuristic, or {@code perturb} for container keys. */
  private volatile String heuristic;

  /** The heuristic of the current run (a read heuristic, or {@code perturb}: see {@link ContainerTrials}). */
  public String heuristic() {
    return heuristic;
  }

  /**
   * This runtime, for a run under {@code heuristic} (which may be {@code perturb}, the container keys' heuristic:
   * adversarial memory then serves as {@code sc} does).
   */
  public JumbleRuntime startedAs(String heuristic) {
    this.heuristic = heuristic;
    ContainerTrials.begin(targets, heuristic, run.memory.config().seed());
    return this;
  }

  /** The seed of the current run. */
  public long seed() {
    return run.memory.config().seed();
  }

  public JumbleTargets targets() {
    return targets;
  }

  public DetectRuntime detect() {
    return detect;
  }

  /**
   * The counters of every field under trial in the current run, in slot order; zeros for a field whose locations were
   * never read.
   */
  public List<FieldStats> stats() {
    List<FieldStats> used = run.memory.stats();
    FieldStats[] out = new FieldStats[targets.keys().size()];
    for (int slot = 0; slot < out.length; slot++) {
      String key = targets.key(slot);
      for (FieldStats s : used) {
        if (s.fieldKey().equals(key)) {
          out[slot] = s;
        }
      }
      FieldStats container = ContainerTrials.stats(slot);
      if (container != null) {
        out[slot] = container; // a container key: its calls and overlaps
      }
      if (out[slot] == null) {
        out[slot] = new FieldStats(key);
      }
    }
    return List.of(out);
  }

  // ---- fields (object null: a static field) ----

  long readBits(ThreadShadow t, Object object, int slot, long current, WriteBuffer.Kind kind) {
    RunState r = run;
    r.pause();
    return buffer(r, object, slot, kind, current, null).read(detect.threadState(t));
  }

  Object readRef(ThreadShadow t, Object object, int slot, Object current) {
    RunState r = run;
    r.pause();
    return buffer(r, object, slot, WriteBuffer.Kind.REFERENCE, 0, current).readRef(detect.threadState(t));
  }

  void writeBits(ThreadShadow t, Object object, int slot, long old, long value, WriteBuffer.Kind kind) {
    RunState r = run;
    r.pause();
    buffer(r, object, slot, kind, old, null).write(detect.threadState(t), value);
  }

  void writeRef(ThreadShadow t, Object object, int slot, Object old, Object value) {
    RunState r = run;
    r.pause();
    buffer(r, object, slot, WriteBuffer.Kind.REFERENCE, 0, old).writeRef(detect.threadState(t), value);
  }

  private WriteBuffer buffer(RunState r, Object object, int slot, WriteBuffer.Kind kind, long bits, Object ref) {
    WriteBuffer[] slots = object == null ? r.statics : r.objects.getOrCreate(object, newSlots);
    WriteBuffer existing = slots[slot];
    if (existing != null) {
      // no lock for a buffer that exists: its constructor ends by releasing its own monitor, and every path through
      // it that needs its fields takes that monitor (the lock-free read path reads only its volatile snapshot)
      return existing;
    }
    synchronized (slots) { // creation under one lock: a location gets one buffer
      WriteBuffer b = slots[slot];
      if (b == null) {
        b = r.create(targets.key(slot), kind, bits, ref);
        slots[slot] = b;
      }
      return b;
    }
  }

  // ---- sampled array elements ----

  /**
   * The array is held in the jumbled array field of {@code slot} (the first such field names it). When thread
   * {@code t} names it first — typically by storing it into the field — the writes {@code t} made to its sampled
   * elements before ({@link UnpublishedWrites}) become buffered writes after the elements' defaults, so a reader that
   * the fill does not happen before may still read a default, as the JMM allows (an array allocated, filled and
   * published through a racy field). Elements nobody wrote that way start from the value they hold, as before.
   */
  void noteArray(ThreadShadow t, Object array, int slot) {
    RunState r = run;
    if (r.arrays.get(array) != null) {
      return;
    }
    SampledArray sampled = r.arrays.getOrCreate(array, new SampledArrayFactory(slot, indices.length));
    UnpublishedWrites unpublished = t.unpublished;
    Class<?> type = array.getClass().getComponentType();
    if (unpublished == null || type == null || !type.isPrimitive()) {
      return;
    }
    synchronized (sampled) {
      for (int k = 0; k < indices.length; k++) {
        int i = indices[k];
        if (sampled.buffers[k] != null || i < 0 || i >= java.lang.reflect.Array.getLength(array)) {
          continue;
        }
        long bits = ElementBits.get(array, i);
        int found = unpublished.find(r.number, array, i, bits);
        if (found >= 0) {
          WriteBuffer b = r.create(targets.key(slot), elementKind(type), 0L, null); // the default, @⊥
          b.writeAtEpoch(unpublished.writer(found), unpublished.epoch(found), bits);
          sampled.buffers[k] = b;
        }
      }
    }
  }

  /**
   * {@code System.arraycopy} of primitive arrays (see {@code JumbleHooks.arraycopy}): the sampled source elements in
   * the copied range are read through their buffers before the copy (so an overlapping copy reads what it would have),
   * the copy runs, the values served replace what it copied, and the sampled destination elements it wrote are
   * buffered writes. Reference arrays are not jumbled: copied as they are. An exception of the copy propagates, with
   * nothing buffered (a primitive copy checks everything before it copies).
   */
  void arraycopy(ThreadShadow t, Object src, int srcPos, Object dest, int destPos, int length) {
    RunState r = run;
    SampledArray from = src == null ? null : r.arrays.get(src);
    SampledArray to = dest == null ? null : r.arrays.get(dest);
    Class<?> type = src == null ? null : src.getClass().getComponentType();
    if (type == null || !type.isPrimitive() || dest.getClass() != src.getClass()
        || length <= 0 || srcPos < 0 || destPos < 0 || srcPos > java.lang.reflect.Array.getLength(src) - length
        || destPos > java.lang.reflect.Array.getLength(dest) - length) {
      System.arraycopy(src, srcPos, dest, destPos, length); // not a primitive copy, or the copy throws
      return;
    }
    WriteBuffer.Kind kind = elementKind(type);
    if (from == null && to == null) {
      System.arraycopy(src, srcPos, dest, destPos, length);
      // nothing sampled yet; a copy into an array a jumbled field may publish later is remembered like its stores
      for (int j : indices) {
        if (j >= destPos && j < destPos + length) {
          long value = ElementBits.get(dest, j);
          writeElement(t, dest, j, value, value, kind);
        }
      }
      return;
    }
    long[] served = new long[indices.length];
    boolean[] read = new boolean[indices.length];
    for (int k = 0; from != null && k < indices.length; k++) {
      int i = indices[k];
      if (i >= srcPos && i < srcPos + length) {
        served[k] = readElement(t, src, i, ElementBits.get(src, i), kind);
        read[k] = true;
      }
    }
    long[] old = new long[indices.length];
    for (int k = 0; to != null && k < indices.length; k++) {
      int j = indices[k];
      if (j >= destPos && j < destPos + length) {
        old[k] = ElementBits.get(dest, j);
      }
    }
    System.arraycopy(src, srcPos, dest, destPos, length);
    for (int k = 0; k < indices.length; k++) {
      if (read[k]) {
        ElementBits.set(dest, destPos + indices[k] - srcPos, served[k]);
      }
    }
    for (int k = 0; k < indices.length; k++) { // into a jumbled array, or one a jumbled field may publish later
      int j = indices[k];
      if (j >= destPos && j < destPos + length) {
        writeElement(t, dest, j, old[k], ElementBits.get(dest, j), kind);
      }
    }
  }

  /**
   * After a clone, {@code Arrays.copyOf} ({@code from} 0) or {@code Arrays.copyOfRange} of a primitive array: the
   * copy's elements that copied sampled elements {@code i} of a jumbled original ({@code copy[i - from]}) as the
   * original's buffers serve them.
   */
  void copied(ThreadShadow t, Object original, int from, Object copy) {
    RunState r = run;
    Class<?> type = original.getClass().getComponentType();
    if (r.arrays.get(original) == null || type == null || !type.isPrimitive() || copy.getClass() != original.getClass()) {
      return;
    }
    WriteBuffer.Kind kind = elementKind(type);
    int end = Math.min(java.lang.reflect.Array.getLength(original), from + java.lang.reflect.Array.getLength(copy));
    for (int i : indices) {
      if (i >= from && i < end) {
        ElementBits.set(copy, i - from, readElement(t, original, i, ElementBits.get(copy, i - from), kind));
      }
    }
  }

  /**
   * Before {@code Arrays.fill}: the sampled elements in {@code [from, to)} of a jumbled primitive array get their
   * buffers now if they have none, seeded with their values before the fill (as an element store's hook seeds one
   * with the old value), so that the fill's writes do not hide them.
   */
  void filling(Object array, int from, int to) {
    RunState r = run;
    Class<?> type = array.getClass().getComponentType();
    if (r.arrays.get(array) == null || type == null || !type.isPrimitive()) {
      return;
    }
    WriteBuffer.Kind kind = elementKind(type);
    int end = Math.min(to, java.lang.reflect.Array.getLength(array));
    for (int i : indices) {
      if (i >= from && i < end) {
        element(r, array, i, kind, ElementBits.get(array, i));
      }
    }
  }

  /**
   * After {@code Arrays.fill}: the sampled elements in {@code [from, to)} of a jumbled array are buffered writes; of an
   * array no jumbled field held yet, writes remembered for the field that may publish it ({@link #noteArray}).
   */
  void filled(ThreadShadow t, Object array, int from, int to) {
    RunState r = run;
    Class<?> type = array.getClass().getComponentType();
    if (type == null || !type.isPrimitive()) {
      return;
    }
    WriteBuffer.Kind kind = elementKind(type);
    int end = Math.min(to, java.lang.reflect.Array.getLength(array));
    for (int i : indices) {
      if (i >= from && i < end) {
        long value = ElementBits.get(array, i);
        // a buffered write, or remembered for a jumbled field that may publish the array later (noteArray)
        writeElement(t, array, i, value, value, kind);
      }
    }
  }

  /** How a primitive element of {@code type} is buffered: long and double may tear (WIDE), the others cannot. */
  private static WriteBuffer.Kind elementKind(Class<?> type) {
    return type == long.class || type == double.class ? WriteBuffer.Kind.WIDE : WriteBuffer.Kind.NARROW;
  }

  /** The element's value for this read; {@code current} unless the array and index are sampled. */
  long readElement(ThreadShadow t, Object array, int index, long current, WriteBuffer.Kind kind) {
    RunState r = run;
    WriteBuffer b = element(r, array, index, kind, current);
    if (b == null) {
      return current;
    }
    r.pause();
    return b.read(detect.threadState(t));
  }

  void writeElement(ThreadShadow t, Object array, int index, long old, long value, WriteBuffer.Kind kind) {
    RunState r = run;
    SampledArray sampled = r.arrays.get(array);
    WriteBuffer b = element(r, sampled, index, kind, old);
    if (b != null) {
      r.pause();
      b.write(detect.threadState(t), value);
    } else if (sampled == null && sampledIndex(index)) {
      // an array no jumbled field held yet: remembered for the field that may publish it (noteArray)
      ThreadState ts = detect.threadState(t);
      if (!ts.inClinit()) {
        UnpublishedWrites u = t.unpublished;
        if (u == null) {
          u = new UnpublishedWrites();
          t.unpublished = u;
        }
        u.remember(r.number, array, index, value, ts.tid(), ts.clock().get(ts.tid()));
      }
    }
  }

  private boolean sampledIndex(int index) {
    for (int i : indices) {
      if (i == index) {
        return true;
      }
    }
    return false;
  }

  private WriteBuffer element(RunState r, Object array, int index, WriteBuffer.Kind kind, long current) {
    return element(r, r.arrays.get(array), index, kind, current);
  }

  /** The buffer of element {@code index} of an array whose sampled buffers are {@code sampled} (null: none). */
  private WriteBuffer element(RunState r, SampledArray sampled, int index, WriteBuffer.Kind kind, long current) {
    if (sampled == null) {
      return null;
    }
    for (int k = 0; k < indices.length; k++) {
      if (indices[k] == index) {
        synchronized (sampled) {
          WriteBuffer b = sampled.buffers[k];
          if (b == null) {
            b = r.create(targets.key(sampled.slot), kind, current, null);
            sampled.buffers[k] = b;
          }
          return b;
        }
      }
    }
    return null;
  }

  void internalError() {
    detect.internalError();
  }

  /** Thread states are created on demand; this one is the caller's. Tests use it to line up clocks. */
  ThreadState threadState(ThreadShadow t) {
    return detect.threadState(t);
  }

  /** Numbers the runs of this JVM ({@link RunState#number}). */
  private static final java.util.concurrent.atomic.AtomicInteger RUNS = new java.util.concurrent.atomic.AtomicInteger();

  /** The buffers, counters and noise of one run (see {@link #beginRun}). */
  private static final class RunState {
    final AdversarialMemory memory;
    final ScheduleNoise noise;
    final WeakIdentityTable<WriteBuffer[]> objects = new WeakIdentityTable<>();
    final WeakIdentityTable<SampledArray> arrays = new WeakIdentityTable<>();
    final WriteBuffer[] statics;
    /** This run's number in the JVM: what a thread's {@link UnpublishedWrites} tell runs apart by. */
    final int number = RUNS.incrementAndGet();

    RunState(AdversarialMemory memory, ScheduleNoise noise, int slots) {
      this.memory = memory;
      this.noise = noise;
      this.statics = new WriteBuffer[slots];
    }

    WriteBuffer create(String key, WriteBuffer.Kind kind, long bits, Object ref) {
      return kind == WriteBuffer.Kind.REFERENCE ? memory.newReferenceBuffer(key, ref) : memory.newBuffer(key, kind, bits);
    }

    void pause() {
      if (noise != null) {
        noise.atAccess();
      }
    }
  }

  /** The sampled buffers of one array, and the jumbled field that named it. */
  private static final class SampledArray {
    final int slot;
    final WriteBuffer[] buffers;

    SampledArray(int slot, int sampled) {
      this.slot = slot;
      this.buffers = new WriteBuffer[sampled];
    }
  }

  /** Not lambdas: the hooks avoid invokedynamic linkage (and the JDK caches behind it). */
  private static final class SlotsFactory implements Function<Object, WriteBuffer[]> {
    private final int size;

    SlotsFactory(int size) {
      this.size = size;
    }

    @Override
    public WriteBuffer[] apply(Object object) {
      return new WriteBuffer[size];
    }
  }

  private static final class SampledArrayFactory implements Function<Object, SampledArray> {
    private final int slot;
    private final int sampled;

    SampledArrayFactory(int slot, int sampled) {
      this.slot = slot;
      this.sampled = sampled;
    }

    @Override
    public SampledArray apply(Object array) {
      return new SampledArray(slot, sampled);
    }
  }
}
