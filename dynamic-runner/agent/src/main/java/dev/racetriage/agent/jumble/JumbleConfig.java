package dev.racetriage.agent.jumble;

/**
 * Settings of adversarial memory for one run.
 *
 * @param heuristic      how a read picks among the visible writes
 * @param seed           the run's seed; every location derives its own generator from it, so a run is replayable
 * @param bound          the write buffer size at which REMOVE OLDEST applies (paper: 32); 2..64
 * @param fairnessLimit  at most this many consecutive reads of one location by one thread serve a value other than the
 *                       latest write; its next one serves the latest (fairness, JUMBLE §1.2: busy-wait loops end)
 * @param splitWide      read longs/doubles non-atomically: top half of one visible write, bottom half of another
 */
public record JumbleConfig(ReadHeuristic heuristic, long seed, int bound, int fairnessLimit, boolean splitWide) {
    public static final int DEFAULT_BOUND = 32;
    public static final int DEFAULT_FAIRNESS_LIMIT = 16;

    public JumbleConfig {
        if (heuristic == null) {
            throw new IllegalArgumentException("a read heuristic is required");
        }
        if (bound < 2 || bound > 64) {
            throw new IllegalArgumentException("write buffer bound must be in 2..64, was " + bound);
        }
        if (fairnessLimit < 1) {
            throw new IllegalArgumentException("fairness limit must be at least 1, was " + fairnessLimit);
        }
    }

    /** The paper's settings: bound 32, wide values split, fairness after 16 stale reads in a row. */
    public static JumbleConfig of(String heuristic, long seed) {
        return new JumbleConfig(ReadHeuristics.byName(heuristic), seed, DEFAULT_BOUND, DEFAULT_FAIRNESS_LIMIT, true);
    }
}
