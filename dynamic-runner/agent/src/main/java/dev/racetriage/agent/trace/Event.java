package dev.racetriage.agent.trace;

/**
 * One operation of a multithreaded program trace (JUMBLE Figure 3, plus the JRF actions the agent hooks). Threads,
 * locations and synchronisation objects are small non-negative ints chosen by the trace; values are longs.
 */
public sealed interface Event {
    /** The thread performing the operation. */
    int thread();

    /** rd(t, x): non-volatile read. */
    record Read(int thread, int location) implements Event {
    }

    /** wr(t, x, v): non-volatile write. */
    record Write(int thread, int location, long value) implements Event {
    }

    /** acq(t, m): lock acquire. */
    record Acquire(int thread, int sync) implements Event {
    }

    /** rel(t, m): lock release. */
    record Release(int thread, int sync) implements Event {
    }

    /** Read of a volatile: an acquire of the volatile's synchronisation object. */
    record VolatileRead(int thread, int sync) implements Event {
    }

    /** Write of a volatile: a release on the volatile's synchronisation object. */
    record VolatileWrite(int thread, int sync) implements Event {
    }

    /** fork(t, u): t starts thread u. */
    record Fork(int thread, int child) implements Event {
    }

    /** join(t, u): t learns that u terminated. */
    record Join(int thread, int joined) implements Event {
    }

    /** instantiate: t creates an object whose non-volatile locations are {@code firstLocation .. firstLocation+count-1}. */
    record New(int thread, int firstLocation, int count) implements Event {
    }

    /** A write of x inside a class initialiser run by t (ordered before every use of the class). */
    record ClinitWrite(int thread, int location, long value) implements Event {
    }
}
