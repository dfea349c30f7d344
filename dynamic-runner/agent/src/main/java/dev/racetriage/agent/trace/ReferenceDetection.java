package dev.racetriage.agent.trace;

import dev.racetriage.agent.detect.HSummaryReference;
import dev.racetriage.agent.detect.RaceKind;

import java.util.ArrayList;
import java.util.List;

/** Drives the literal bitset h-summary ({@link HSummaryReference}) over a trace and collects its races. */
public final class ReferenceDetection implements TraceMachine {
    private final HSummaryReference h = new HSummaryReference();
    private final List<TraceRace> races = new ArrayList<>();

    @Override
    public void apply(int index, Event event) {
        if (event instanceof Event.Read e) {
            record(index, e.location(), h.read(e.thread(), e.location()));
        } else if (event instanceof Event.Write e) {
            record(index, e.location(), h.write(e.thread(), e.location()));
        } else if (event instanceof Event.Acquire e) {
            h.acquire(e.thread(), e.sync());
        } else if (event instanceof Event.Release e) {
            h.release(e.thread(), e.sync());
        } else if (event instanceof Event.VolatileRead e) {
            h.acquire(e.thread(), e.sync());
        } else if (event instanceof Event.VolatileWrite e) {
            h.release(e.thread(), e.sync());
        } else if (event instanceof Event.Fork e) {
            h.fork(e.thread(), e.child());
        } else if (event instanceof Event.Join e) {
            h.join(e.thread(), e.joined());
        } else if (event instanceof Event.New e) {
            for (int x = e.firstLocation(); x < e.firstLocation() + e.count(); x++) {
                h.instantiate(e.thread(), x);
            }
        } else if (event instanceof Event.ClinitWrite e) {
            h.clinitWrite(e.thread(), e.location());
        }
    }

    private void record(int index, int location, RaceKind kind) {
        if (kind != null) {
            races.add(new TraceRace(index, location, kind));
        }
    }

    public HSummaryReference summary() {
        return h;
    }

    public List<TraceRace> races() {
        return List.copyOf(races);
    }
}
