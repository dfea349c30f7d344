package dev.racetriage.agent.trace;

import dev.racetriage.agent.hb.ThreadState;
import dev.racetriage.agent.jumble.AdversarialMemory;
import dev.racetriage.agent.jumble.JumbleConfig;
import dev.racetriage.agent.jumble.WriteBuffer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Drives adversarial memory over a trace, as the runtime would with every location jumbled: writes append to the
 * location's write buffer, reads are answered by it, synchronisation moves clocks. Records the value served for every
 * read so tests can check it against the memory model.
 */
public final class JumbleRun implements TraceMachine {
    /** The value a read event was served, with the buffer it came from as it was at that moment. */
    public record ServedRead(int eventIndex, int thread, int location, long value, String buffer) {
    }

    private final TraceThreads hb = new TraceThreads();
    private final AdversarialMemory memory;
    private final Set<Integer> wideLocations;
    private final Map<Integer, WriteBuffer> buffers = new HashMap<>();
    private final List<ServedRead> served = new ArrayList<>();

    /** @param wideLocations locations holding a long/double, read non-atomically */
    public JumbleRun(JumbleConfig config, Set<Integer> wideLocations) {
        this.memory = new AdversarialMemory(hb.engine(), config);
        this.wideLocations = Set.copyOf(wideLocations);
    }

    public JumbleRun(JumbleConfig config) {
        this(config, Set.of());
    }

    /** Every read through the write buffers' locked slow path (see {@link AdversarialMemory#slowPathOnly}). */
    public JumbleRun slowPathOnly() {
        memory.slowPathOnly();
        return this;
    }

    @Override
    public void apply(int index, Event event) {
        if (hb.applySync(event)) {
            return; // JOIN also marks the joined thread terminated, so GC1 stops counting it as a reader
        }
        if (event instanceof Event.Read e) {
            WriteBuffer b = buffer(e.location());
            String before = b.toString();
            served.add(new ServedRead(index, e.thread(), e.location(), b.read(hb.thread(e.thread())), before));
        } else if (event instanceof Event.Write e) {
            buffer(e.location()).write(hb.thread(e.thread()), e.value());
        } else if (event instanceof Event.New e) {
            for (int x = e.firstLocation(); x < e.firstLocation() + e.count(); x++) {
                buffer(x);
            }
        } else if (event instanceof Event.ClinitWrite e) {
            ThreadState t = hb.thread(e.thread());
            t.enterClinit();
            buffer(e.location()).write(t, e.value());
            t.exitClinit();
        }
    }

    /** The write buffer of x, created as 0@⊥ on first use. */
    public WriteBuffer buffer(int x) {
        return buffers.computeIfAbsent(x, k -> memory.newBuffer("x" + k,
                wideLocations.contains(k) ? WriteBuffer.Kind.WIDE : WriteBuffer.Kind.NARROW, 0));
    }

    public TraceThreads threads() {
        return hb;
    }

    public AdversarialMemory memory() {
        return memory;
    }

    public List<ServedRead> served() {
        return List.copyOf(served);
    }
}
