package dev.racetriage.agent.jumble;

/**
 * Resolves the non-determinism of the READ rule (JUMBLE §5.1): which visible write a read returns. Implementations
 * are stateless; their randomness comes from the {@link ReadChoice}.
 */
public interface ReadHeuristic {
    /** The name used on the command line and in reports: sc, oldest, oldest-but-different, random, random-but-different. */
    String name();

    /** The index of a visible entry (a set bit of {@code choice.visible()}). */
    int choose(ReadChoice choice);

    /** True for the heuristic that never serves stale values (the baseline); wide values are then read whole. */
    default boolean sequentiallyConsistent() {
        return false;
    }
}
