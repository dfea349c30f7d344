package dev.racetriage.agent.detect;

/**
 * The first {@code capacity} distinct array indices added, in order of first addition, and whether more distinct ones
 * came. Plain {@code int}s, no boxing: it is filled on a program thread on the race-report path (under the
 * {@link RaceAggregator}'s monitor, which guards it). A linear scan is fine at the capacities used (tens).
 */
final class BoundedIndexSet {
    private final int[] indices;
    private int size;
    private boolean truncated;

    BoundedIndexSet(int capacity) {
        this.indices = new int[capacity];
    }

    /** @return true if the set changed: the index was added, or it is the first one dropped */
    boolean add(int index) {
        if (contains(index)) {
            return false;
        }
        if (size < indices.length) {
            indices[size++] = index;
            return true;
        }
        boolean first = !truncated;
        truncated = true;
        return first;
    }

    boolean contains(int index) {
        for (int i = 0; i < size; i++) {
            if (indices[i] == index) {
                return true;
            }
        }
        return false;
    }

    int size() {
        return size;
    }

    int get(int i) {
        return indices[i];
    }

    /** True if a distinct index was dropped because the set was full. */
    boolean truncated() {
        return truncated;
    }
}
