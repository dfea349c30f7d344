package dev.racetriage.agent.runtime;

import dev.racetriage.agent.hb.ThreadState;
import dev.racetriage.agent.jumble.AdversarialMemory;
import dev.racetriage.agent.jumble.FieldStats;
import dev.racetriage.agent.jumble.JumbleConfig;
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
  private final AdversarialMemory memory;
  private final int[] indices;
  private final ScheduleNoise noise;
  private final WeakIdentityTable<WriteBuffer[]> objects = new WeakIdentityTable<>();
  private final WeakIdentityTable<SampledArray> arrays = new WeakIdentityTable<>();
  private final WriteBuffer[] statics;
  private final Function<Object, WriteBuffer[]> newSlots;

  /**
   * @param indices the array elements sampled in each jumbled array
   * @param noise   schedule noise at jumbled accesses, or null for none
   */
  public JumbleRuntime(DetectRuntime detect, JumbleTargets targets, JumbleConfig config, int[] indices,
                       ScheduleNoise noise) {
    this.detect = detect;
    this.targets = targets;
    this.memory = new AdversarialMemory(detect.engine(), config);
    this.indices = indices.clone();
    this.noise = noise;
    this.statics = new WriteBuffer[targets.keys().size()];
    this.newSlots = new SlotsFactory(statics.length);
  }

  public JumbleTargets targets() {
    return targets;
  }

  public DetectRuntime detect() {
    return detect;
  }

  /** The counters of every field under trial, in slot order; zeros for a field whose locations were never read. */
  public List<FieldStats> stats() {
    List<FieldStats> used = memory.stats();
    FieldStats[] out = new FieldStats[targets.keys().size()];
    for (int slot = 0; slot < out.length; slot++) {
      String key = targets.key(slot);
      for (FieldStats s : used) {
        if (s.fieldKey().equals(key)) {
          out[slot] = s;
        }
      }
      if (out[slot] == null) {
        out[slot] = new FieldStats(key);
      }
    }
    return List.of(out);
  }

  // ---- fields (object null: a static field) ----

  long readBits(ThreadShadow t, Object object, int slot, long current, WriteBuffer.Kind kind) {
    pause();
    return buffer(object, slot, kind, current, null).read(detect.threadState(t));
  }

  Object readRef(ThreadShadow t, Object object, int slot, Object current) {
    pause();
    return buffer(object, slot, WriteBuffer.Kind.REFERENCE, 0, current).readRef(detect.threadState(t));
  }

  void writeBits(ThreadShadow t, Object object, int slot, long old, long value, WriteBuffer.Kind kind) {
    pause();
    buffer(object, slot, kind, old, null).write(detect.threadState(t), value);
  }

  void writeRef(ThreadShadow t, Object object, int slot, Object old, Object value) {
    pause();
    buffer(object, slot, WriteBuffer.Kind.REFERENCE, 0, old).writeRef(detect.threadState(t), value);
  }

  private WriteBuffer buffer(Object object, int slot, WriteBuffer.Kind kind, long bits, Object ref) {
    WriteBuffer[] slots = object == null ? statics : objects.getOrCreate(object, newSlots);
    synchronized (slots) { // creation and lookup under one lock: a buffer is published only once complete
      WriteBuffer b = slots[slot];
      if (b == null) {
        b = create(targets.key(slot), kind, bits, ref);
        slots[slot] = b;
      }
      return b;
    }
  }

  private WriteBuffer create(String key, WriteBuffer.Kind kind, long bits, Object ref) {
    return kind == WriteBuffer.Kind.REFERENCE ? memory.newReferenceBuffer(key, ref) : memory.newBuffer(key, kind, bits);
  }

  // ---- sampled array elements ----

  /** The array is held in the jumbled array field of {@code slot} (the first such field names it). */
  void noteArray(Object array, int slot) {
    if (arrays.get(array) == null) {
      arrays.getOrCreate(array, new SampledArrayFactory(slot, indices.length));
    }
  }

  /** The element's value for this read; {@code current} unless the array and index are sampled. */
  long readElement(ThreadShadow t, Object array, int index, long current, WriteBuffer.Kind kind) {
    WriteBuffer b = element(array, index, kind, current);
    if (b == null) {
      return current;
    }
    pause();
    return b.read(detect.threadState(t));
  }

  void writeElement(ThreadShadow t, Object array, int index, long old, long value, WriteBuffer.Kind kind) {
    WriteBuffer b = element(array, index, kind, old);
    if (b != null) {
      pause();
      b.write(detect.threadState(t), value);
    }
  }

  private WriteBuffer element(Object array, int index, WriteBuffer.Kind kind, long current) {
    SampledArray sampled = arrays.get(array);
    if (sampled == null) {
      return null;
    }
    for (int k = 0; k < indices.length; k++) {
      if (indices[k] == index) {
        synchronized (sampled) {
          WriteBuffer b = sampled.buffers[k];
          if (b == null) {
            b = create(targets.key(sampled.slot), kind, current, null);
            sampled.buffers[k] = b;
          }
          return b;
        }
      }
    }
    return null;
  }

  private void pause() {
    if (noise != null) {
      noise.atAccess();
    }
  }

  void internalError() {
    detect.internalError();
  }

  /** Thread states are created on demand; this one is the caller's. Tests use it to line up clocks. */
  ThreadState threadState(ThreadShadow t) {
    return detect.threadState(t);
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
