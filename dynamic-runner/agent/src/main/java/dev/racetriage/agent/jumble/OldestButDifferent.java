package dev.racetriage.agent.jumble;

/**
 * oldest-but-different: the oldest visible value that differs from the last value read from this location, so a
 * check-then-use ({@code if (x != null) x.draw()}) sees alternating values (JUMBLE Figure 8). When every visible value
 * equals the last one read, the latest write.
 */
public final class OldestButDifferent implements ReadHeuristic {
    @Override
    public String name() {
        return "oldest-but-different";
    }

    @Override
    public int choose(ReadChoice choice) {
        long different = choice.visibleAndDifferent();
        return different == 0 ? choice.size() - 1 : Long.numberOfTrailingZeros(different);
    }
}
