package dev.racetriage.agent.jumble;

import java.util.List;

/** The five heuristics of JUMBLE §5.1, by name. */
public final class ReadHeuristics {
    private static final List<ReadHeuristic> ALL = List.of(new SequentiallyConsistent(), new Oldest(),
            new OldestButDifferent(), new RandomVisible(), new RandomButDifferent());

    private ReadHeuristics() {
    }

    public static List<ReadHeuristic> all() {
        return ALL;
    }

    /**
     * The heuristic called {@code name}.
     *
     * @throws IllegalArgumentException naming the known heuristics, for an unknown name (an option error reported at
     *                                  agent start-up, never on an access)
     */
    public static ReadHeuristic byName(String name) {
        for (ReadHeuristic h : ALL) {
            if (h.name().equals(name)) {
                return h;
            }
        }
        StringBuilder known = new StringBuilder();
        for (ReadHeuristic h : ALL) {
            known.append(known.length() == 0 ? "" : ", ").append(h.name());
        }
        throw new IllegalArgumentException("unknown read heuristic '" + name + "'; use one of: " + known);
    }
}
