package dev.racetriage.agent.jumble;

/**
 * Which other heuristics would have made the very run the run's own heuristic made: at every read with a choice,
 * served the same entry with the same random draws. Such a run <em>is</em> the run the other heuristic would have
 * made on the same schedule (the program cannot tell them apart: same values, same writes, same later visibility and
 * fairness), so the runner counts it for that heuristic's benign rule too (docs/architecture.md "Trials").
 *
 * <ul>
 *   <li>{@code oldest} and {@code oldest-but-different} are deterministic: alike where they pick the entry served;</li>
 *   <li>{@code random-but-different}, beside a deterministic heuristic, where at most one visible entry differs from
 *       the last value read (it has nothing to draw) and that is the entry served;</li>
 *   <li>{@code random} and {@code random-but-different}, beside each other, where every visible entry differs from
 *       the last value read (a location's first read, say): both then draw from the same entries with the location's
 *       random numbers, and with the same seed draw the same one; a read where only one of them would draw makes them
 *       unlike for the rest of the run, since their random numbers would no longer be the same;</li>
 *   <li>a torn wide value is drawn at random: unlike every other heuristic.</li>
 * </ul>
 */
public final class SameChoices {
    public static final int OLDEST = 1;
    public static final int OLDEST_BUT_DIFFERENT = 2;
    public static final int RANDOM_BUT_DIFFERENT = 4;
    public static final int RANDOM = 8;
    /** Every heuristic that can share a run (not {@code sc}: the control serves no stale value). */
    public static final int ALL = OLDEST | OLDEST_BUT_DIFFERENT | RANDOM_BUT_DIFFERENT | RANDOM;

    private static final String[] NAMES = {"oldest", "oldest-but-different", "random-but-different", "random"};

    private SameChoices() {
    }

    /** The bit of the heuristic called {@code name}, 0 for one that shares no run ({@code sc}, {@code perturb}). */
    public static int bit(String name) {
        for (int i = 0; i < NAMES.length; i++) {
            if (NAMES[i].equals(name)) {
                return 1 << i;
            }
        }
        return 0;
    }

    /**
     * The heuristics that would not have served entry {@code chosen} at this read, or not with the same draws, beside
     * the run's own heuristic {@code own} (its {@link #bit}).
     */
    static int unlike(ReadChoice choice, int chosen, int own) {
        long visible = choice.visible();
        int unlike = 0;
        if (Long.numberOfTrailingZeros(visible) != chosen) {
            unlike |= OLDEST;
        }
        long different = choice.visibleAndDifferent();
        int firstDifferent = different == 0 ? choice.size() - 1 : Long.numberOfTrailingZeros(different);
        if (firstDifferent != chosen) {
            unlike |= OLDEST_BUT_DIFFERENT;
        }
        boolean sameDraw = different == visible; // random and random-but-different draw from the same entries
        if (own == RANDOM) {
            if (!sameDraw) {
                unlike |= RANDOM_BUT_DIFFERENT;
            }
        } else if (own == RANDOM_BUT_DIFFERENT) {
            if (!sameDraw) {
                unlike |= RANDOM;
            }
        } else {
            // beside a heuristic that draws nothing: random always draws here, random-but-different unless it has at
            // most one entry to pick
            unlike |= RANDOM;
            if (Long.bitCount(different) > 1 || firstDifferent != chosen) {
                unlike |= RANDOM_BUT_DIFFERENT;
            }
        }
        return unlike;
    }

    /**
     * The names of the heuristics other than {@code heuristic} that would have made a run whose reads were
     * {@code unlike} them ({@link #unlike}, or'ed over the run), in {@link ReadHeuristics} order; none for a heuristic
     * that shares no run.
     */
    public static String[] alike(String heuristic, int unlike) {
        int own = bit(heuristic);
        int alike = own == 0 ? 0 : ALL & ~unlike & ~own;
        String[] out = new String[Integer.bitCount(alike)];
        int k = 0;
        for (int i = 0; i < NAMES.length; i++) {
            if ((alike & (1 << i)) != 0) {
                out[k++] = NAMES[i];
            }
        }
        return out;
    }
}
