package dev.racetriage.agent.hb;

/**
 * An epoch c@t (FastTrack's name): one thread's clock value, packed into a {@code long} so a location's last-write
 * epoch can be read and written atomically with a single volatile access and no allocation.
 * Layout: thread id in the high 32 bits, clock in the low 32 bits.
 *
 * <p>A clock of 0 never belongs to a real access (every thread starts at clock 1, JUMBLE §4.1: C(t) = inc_t(⊥)),
 * so every epoch with clock 0 means ⊥ — "ordered before everyone". {@link #BOTTOM} is the canonical one.
 */
public final class Epoch {
    /** ⊥: happens-before every thread's clock. */
    public static final long BOTTOM = 0L;

    private Epoch() {
    }

    public static long of(int tid, int clock) {
        return ((long) tid << 32) | (clock & 0xFFFF_FFFFL);
    }

    public static int tid(long epoch) {
        return (int) (epoch >>> 32);
    }

    public static int clock(long epoch) {
        return (int) epoch;
    }

    public static boolean isBottom(long epoch) {
        return clock(epoch) == 0;
    }

    public static String toString(long epoch) {
        return isBottom(epoch) ? "⊥" : clock(epoch) + "@" + tid(epoch);
    }
}
