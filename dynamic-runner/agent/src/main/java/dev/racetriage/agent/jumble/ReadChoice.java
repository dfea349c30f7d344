package dev.racetriage.agent.jumble;

/**
 * What a {@link ReadHeuristic} sees of one read: the write buffer's entries 0..size-1 (oldest first), which of them
 * the READ rule lets this read return, and the location's last read value. Valid only during the read.
 */
public interface ReadChoice {
    /** Number of entries in the buffer; entry size-1 is the latest write. */
    int size();

    /** Bit i set iff entry i is visible to the reading thread (READ rule). Bit size-1 is always set. */
    long visible();

    /** True iff entry i's value differs from the value last read from this location (true if never read). */
    boolean differsFromLastRead(int i);

    /** Seeded, replayable randomness of this location. */
    SeededRandom random();

    /** The index of a uniformly chosen set bit of {@code mask} (which must be non-zero). */
    default int randomIndex(long mask) {
        int k = random().nextInt(Long.bitCount(mask));
        long m = mask;
        for (int i = 0; i < k; i++) {
            m &= m - 1;
        }
        return Long.numberOfTrailingZeros(m);
    }

    /** The visible entries whose value differs from the last read one. */
    default long visibleAndDifferent() {
        long v = visible();
        long out = 0;
        for (long m = v; m != 0; m &= m - 1) {
            int i = Long.numberOfTrailingZeros(m);
            if (differsFromLastRead(i)) {
                out |= 1L << i;
            }
        }
        return out;
    }
}
