package dev.racetriage.agent.trace;

import java.util.ArrayList;
import java.util.List;

/** An immutable sequence of {@link Event}s, with a builder in the notation of the papers. */
public record Trace(List<Event> events) {
    public Trace {
        events = List.copyOf(events);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Feeds every event, with its index, to the machine, in order. */
    public void run(TraceMachine machine) {
        for (int i = 0; i < events.size(); i++) {
            machine.apply(i, events.get(i));
        }
    }

    /** The trace in the papers' notation ({@link TraceNotation}), one indexed operation per line. */
    @Override
    public String toString() {
        return TraceNotation.format(this);
    }

    /** Parses the papers' notation, e.g. {@code acq(0,m) wr(0,x,13) rel(0,m) rd(1,x)}; see {@link TraceNotation}. */
    public static Trace parse(String text) {
        return TraceNotation.parse(text);
    }

    public static final class Builder {
        private final List<Event> events = new ArrayList<>();

        public Builder rd(int t, int x) {
            return add(new Event.Read(t, x));
        }

        public Builder wr(int t, int x, long v) {
            return add(new Event.Write(t, x, v));
        }

        public Builder wr(int t, int x) {
            return wr(t, x, 0);
        }

        public Builder acq(int t, int m) {
            return add(new Event.Acquire(t, m));
        }

        public Builder rel(int t, int m) {
            return add(new Event.Release(t, m));
        }

        public Builder vrd(int t, int v) {
            return add(new Event.VolatileRead(t, v));
        }

        public Builder vwr(int t, int v) {
            return add(new Event.VolatileWrite(t, v));
        }

        public Builder fork(int t, int u) {
            return add(new Event.Fork(t, u));
        }

        public Builder join(int t, int u) {
            return add(new Event.Join(t, u));
        }

        public Builder newObject(int t, int firstLocation, int count) {
            return add(new Event.New(t, firstLocation, count));
        }

        public Builder clinitWr(int t, int x, long v) {
            return add(new Event.ClinitWrite(t, x, v));
        }

        public Builder add(Event e) {
            events.add(e);
            return this;
        }

        public Trace build() {
            return new Trace(events);
        }
    }
}
