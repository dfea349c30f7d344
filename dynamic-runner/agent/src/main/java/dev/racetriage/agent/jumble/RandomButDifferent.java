package dev.racetriage.agent.jumble;

/**
 * random-but-different: a uniformly random visible value among those that differ from the last value read from this
 * location; the latest write when there is none.
 */
public final class RandomButDifferent implements ReadHeuristic {
    @Override
    public String name() {
        return "random-but-different";
    }

    @Override
    public int choose(ReadChoice choice) {
        long different = choice.visibleAndDifferent();
        return different == 0 ? choice.size() - 1 : choice.randomIndex(different);
    }
}
