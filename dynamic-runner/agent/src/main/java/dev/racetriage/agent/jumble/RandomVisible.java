package dev.racetriage.agent.jumble;

/** random: a uniformly random visible value. */
public final class RandomVisible implements ReadHeuristic {
    @Override
    public String name() {
        return "random";
    }

    @Override
    public int choose(ReadChoice choice) {
        return choice.randomIndex(choice.visible());
    }
}
