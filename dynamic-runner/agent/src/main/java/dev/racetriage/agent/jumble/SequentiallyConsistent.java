package dev.racetriage.agent.jumble;

/** sc: always the most recent write v_n — the baseline that shows the instrumentation alone breaks nothing. */
public final class SequentiallyConsistent implements ReadHeuristic {
    @Override
    public String name() {
        return "sc";
    }

    @Override
    public int choose(ReadChoice choice) {
        return choice.size() - 1;
    }

    @Override
    public boolean sequentiallyConsistent() {
        return true;
    }
}
