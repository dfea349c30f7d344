package dev.racetriage.agent.jumble;

/**
 * SplitMix64: a small, fast, seedable generator. Used instead of {@link java.util.Random}, which relies on
 * {@code java.util.concurrent.atomic.AtomicLong} (the agent must not call into j.u.c, which it may instrument). Not
 * thread-safe: each {@link WriteBuffer} owns one and uses it under its own monitor, so a replay with the same seed
 * and the same sequence of operations on a location makes the same choices.
 */
public final class SeededRandom {
    private long state;

    public SeededRandom(long seed) {
        this.state = seed;
    }

    public long nextLong() {
        long z = (state += 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Uniform in [0, bound) (bias below 2^-31 for the bounds used here, at most 64). */
    public int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive: " + bound);
        }
        return (int) ((nextLong() >>> 1) % bound);
    }

    public boolean nextBoolean() {
        return nextLong() < 0;
    }

    /** Mixes several values into one seed (per-field and per-instance seeds derived from the run's seed). */
    public static long mix(long a, long b) {
        return new SeededRandom(a * 0x9E3779B97F4A7C15L ^ b).nextLong();
    }
}
