package dev.racetriage.agent.hb;

/**
 * The wait between two tries of one of the agent's bit locks ({@link SyncClock}, the detector's locations): they are
 * held for a few memory accesses, so a contender spins briefly, then yields — the holder may have been descheduled
 * (a program may run more threads than there are cores).
 */
public final class Backoff {
    private static final int SPINS = 64;

    private Backoff() {
    }

    /** Called after the {@code tries}-th failed try (0, 1, …). */
    public static void pause(int tries) {
        if (tries < SPINS) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }
}
