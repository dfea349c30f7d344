package dev.racetriage.agent.detect;

import java.util.List;
import java.util.Map;

/**
 * The aggregate of every race reported on one field key: how many times, how many of each kind, the first report in
 * full, the distinct (current site, previous site, kind) pairs seen (at most {@link RaceAggregator#MAX_PAIRS}), the
 * tests that were running when it raced (at most {@link RaceAggregator#MAX_TESTS}; empty outside tests) and, for an
 * array key ({@code pkg.Cls.slots[]}), the distinct element indices that raced (at most
 * {@link RaceAggregator#MAX_INDICES}; those of WR races first, as a stale value can only be served where a read
 * raced; empty for a field). {@code predicted}: every report was a prediction (predict=true: happens-before ordered
 * the accesses, WCP did not), {@code witness} the first prediction's lock order to flip (null if none).
 */
public record FieldRaces(String fieldKey, long count, Map<RaceKind, Long> countByKind, RaceReport first,
                         List<SitePair> sitePairs, boolean sitePairsTruncated, List<String> tests,
                         List<Integer> indices, boolean indicesTruncated, boolean predicted, String witness) {
    public FieldRaces {
        countByKind = Map.copyOf(countByKind);
        sitePairs = List.copyOf(sitePairs);
        tests = List.copyOf(tests);
        indices = List.copyOf(indices);
    }

    /** Observed (not only predicted). */
    public FieldRaces(String fieldKey, long count, Map<RaceKind, Long> countByKind, RaceReport first,
                      List<SitePair> sitePairs, boolean sitePairsTruncated, List<String> tests,
                      List<Integer> indices, boolean indicesTruncated) {
        this(fieldKey, count, countByKind, first, sitePairs, sitePairsTruncated, tests, indices, indicesTruncated,
                false, null);
    }

    /** Without racing indices (a field, not an array). */
    public FieldRaces(String fieldKey, long count, Map<RaceKind, Long> countByKind, RaceReport first,
                      List<SitePair> sitePairs, boolean sitePairsTruncated, List<String> tests) {
        this(fieldKey, count, countByKind, first, sitePairs, sitePairsTruncated, tests, List.of(), false);
    }

    /** Without test attribution. */
    public FieldRaces(String fieldKey, long count, Map<RaceKind, Long> countByKind, RaceReport first,
                      List<SitePair> sitePairs, boolean sitePairsTruncated) {
        this(fieldKey, count, countByKind, first, sitePairs, sitePairsTruncated, List.of());
    }

    /** A distinct pair of racing sites; {@code current} detected the race against the earlier write {@code previous}. */
    public record SitePair(RaceKind kind, Site current, Site previous) {
        // Written out (not generated): generated record methods are bootstrapped by invokedynamic on first use,
        // which would happen on a program thread inside the agent (see RaceAggregator).
        @Override
        public boolean equals(Object o) {
            return o instanceof SitePair p && kind == p.kind && current.equals(p.current) && previous.equals(p.previous);
        }

        @Override
        public int hashCode() {
            return (kind.ordinal() * 31 + current.hashCode()) * 31 + previous.hashCode();
        }

        @Override
        public String toString() {
            return kind.name().concat(" ").concat(current.toString()).concat(" after ").concat(previous.toString());
        }
    }
}
