package dev.racetriage.agent.jumble;

/**
 * Which of the deterministic heuristics would have served another entry than the run's own heuristic did at one read
 * with a choice. A run whose every read with a choice served what {@code oldest} would have served <em>is</em> the
 * run {@code oldest} would have made on the same schedule (the program cannot tell them apart: same values, same
 * writes, same later visibility and fairness), so its outcome counts for {@code oldest} too (the runner's benign
 * rule, docs/architecture.md "Trials"). {@code random-but-different} is deterministic at a read where at most one
 * visible entry differs from the last value read; where it would draw among several, it is counted as choosing
 * otherwise. {@code random} never is deterministic at a read with a choice, so it is not tracked.
 */
public final class SameChoices {
    public static final int OLDEST = 1;
    public static final int OLDEST_BUT_DIFFERENT = 2;
    public static final int RANDOM_BUT_DIFFERENT = 4;
    /** Every tracked heuristic: what a read that cannot be replayed by any of them (a torn wide value) reports. */
    public static final int ALL = OLDEST | OLDEST_BUT_DIFFERENT | RANDOM_BUT_DIFFERENT;

    private static final String[] NAMES = {"oldest", "oldest-but-different", "random-but-different"};

    private SameChoices() {
    }

    /** The tracked heuristics that would not have served entry {@code chosen} at this read (or not surely). */
    static int unlike(ReadChoice choice, int chosen) {
        int unlike = 0;
        if (Long.numberOfTrailingZeros(choice.visible()) != chosen) {
            unlike |= OLDEST;
        }
        long different = choice.visibleAndDifferent();
        int firstDifferent = different == 0 ? choice.size() - 1 : Long.numberOfTrailingZeros(different);
        if (firstDifferent != chosen) {
            unlike |= OLDEST_BUT_DIFFERENT;
        }
        if (Long.bitCount(different) > 1 || firstDifferent != chosen) {
            unlike |= RANDOM_BUT_DIFFERENT;
        }
        return unlike;
    }

    /** The names of the heuristics in {@code mask}, in {@link ReadHeuristics} order. */
    public static String[] names(int mask) {
        int n = Integer.bitCount(mask & ALL);
        String[] out = new String[n];
        int k = 0;
        for (int i = 0; i < NAMES.length; i++) {
            if ((mask & (1 << i)) != 0) {
                out[k++] = NAMES[i];
            }
        }
        return out;
    }
}
