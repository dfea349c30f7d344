package dev.racetriage.agent.jumble;

/** oldest: the most stale visible value (fairness, applied by the buffer, occasionally forces the latest). */
public final class Oldest implements ReadHeuristic {
    @Override
    public String name() {
        return "oldest";
    }

    @Override
    public int choose(ReadChoice choice) {
        return Long.numberOfTrailingZeros(choice.visible());
    }
}
