package dev.racetriage.agent.jumble;

import dev.racetriage.agent.hb.HappensBefore;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Adversarial memory for one trial run: creates the {@link WriteBuffer} of each jumbled location with its own seed
 * (derived from the run's seed, the field key and the order in which that field's locations appear, so a replay of
 * the same schedule makes the same choices) and keeps one {@link FieldStats} per jumbled field.
 *
 * <p>The runtime creates a buffer on the first hooked access to a location of a field under trial, passing the
 * location's current value as the initial entry (value@⊥: the default, or whatever unhooked code stored before), and
 * from then on routes that location's writes to {@code write}/{@code writeRef} and its reads to
 * {@code read}/{@code readRef}, returning the buffer's answer to the program.
 */
public final class AdversarialMemory {
    private final HappensBefore engine;
    private final JumbleConfig config;
    private final Map<String, Field> fields = new LinkedHashMap<>();
    private boolean slowPathOnly;

    public AdversarialMemory(HappensBefore engine, JumbleConfig config) {
        this.engine = engine;
        this.config = config;
    }

    public JumbleConfig config() {
        return config;
    }

    /**
     * Buffers created from now on serve every read through the lock and the clock walk, never the lock-free fast
     * path: for the property test that the fast path serves exactly what the slow path does.
     */
    public AdversarialMemory slowPathOnly() {
        slowPathOnly = true;
        return this;
    }

    /** A new buffer for one location of {@code fieldKey} holding the primitive value {@code initialBits}. */
    public WriteBuffer newBuffer(String fieldKey, WriteBuffer.Kind kind, long initialBits) {
        return create(fieldKey, kind, initialBits, null);
    }

    /** A new buffer for one reference location of {@code fieldKey} holding {@code initial}. */
    public WriteBuffer newReferenceBuffer(String fieldKey, Object initial) {
        return create(fieldKey, WriteBuffer.Kind.REFERENCE, 0, initial);
    }

    private WriteBuffer create(String fieldKey, WriteBuffer.Kind kind, long initialBits, Object initialRef) {
        FieldStats stats;
        long seed;
        synchronized (fields) {
            Field f = fields.get(fieldKey); // no lambda: this runs on a program thread (see RaceAggregator)
            if (f == null) {
                f = new Field(new FieldStats(fieldKey));
                fields.put(fieldKey, f);
            }
            stats = f.stats;
            seed = SeededRandom.mix(SeededRandom.mix(config.seed(), fieldKey.hashCode()), f.locations++);
        }
        stats.countLocation();
        WriteBuffer buffer = new WriteBuffer(kind, initialBits, initialRef, config, seed, engine, stats);
        if (slowPathOnly) {
            buffer.slowPathOnly();
        }
        return buffer;
    }

    /** The counters of every field that had at least one buffer, in order of first use. */
    public List<FieldStats> stats() {
        synchronized (fields) {
            List<FieldStats> out = new ArrayList<>(fields.size());
            for (Field f : fields.values()) {
                out.add(f.stats);
            }
            return out;
        }
    }

    private static final class Field {
        final FieldStats stats;
        long locations;

        Field(FieldStats stats) {
            this.stats = stats;
        }
    }
}
