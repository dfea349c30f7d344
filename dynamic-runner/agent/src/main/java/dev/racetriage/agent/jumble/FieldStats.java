package dev.racetriage.agent.jumble;

/**
 * Counters of one jumbled field over all its locations (instances): reads served, reads that had more than one
 * visible write to choose from, and reads that served a stale value (different from the latest write's). A race for
 * which no stale value was ever served was not exercised — it is <em>unexercised</em>, not benign.
 *
 * <p>Also JUMBLE Figure 10's columns: the locations that got a write buffer (Num. Instances), the writes (Num.
 * Writes), and over all locations the largest write buffer with compression (entries held after GC1/GC2, at most
 * the bound) and without (the initial entry plus every write to one location), with how many writes had to apply
 * REMOVE OLDEST (non-zero: the bound limited the stale values a read could get).
 */
public final class FieldStats {
    private final String fieldKey;
    private long reads;
    private long readsWithChoice;
    private long staleReads;
    private long writes;
    private long locations;
    private int maxBufferCompressed;
    private long maxBufferUncompressed;
    private long removedOldest;
    /** The heuristics that would have served some read otherwise ({@link SameChoices}). */
    private int unlike;

    public FieldStats(String fieldKey) {
        this.fieldKey = fieldKey;
    }

    public String fieldKey() {
        return fieldKey;
    }

    /** A read with no choice served without the buffer's lock ({@link WriteBuffer}'s fast path): one atomic add. */
    void countFastRead() {
        FAST_READS.getAndAdd(this, 1L);
    }

    /** Reads served by the fast path (added to {@link #reads}). */
    private volatile long fastReads;
    private static final java.lang.invoke.VarHandle FAST_READS;

    static {
        try {
            FAST_READS = java.lang.invoke.MethodHandles.lookup().findVarHandle(FieldStats.class, "fastReads", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    synchronized void countRead(boolean hadChoice, boolean stale, int unlikeHeuristics) {
        unlike |= unlikeHeuristics;
        reads++;
        if (hadChoice) {
            readsWithChoice++;
        }
        if (stale) {
            staleReads++;
        }
    }

    /**
     * A modelled call on a container under trial (a key {@code pkg.Cls.map{}}): counted as a read, and as a stale
     * read when it {@code overlapped} another thread's call on the same container (the race was exercised).
     */
    public synchronized void countContainerCall(boolean overlapped) {
        countRead(false, overlapped, 0);
    }

    /** A location of this field got its buffer (one entry: the value it held). */
    synchronized void countLocation() {
        locations++;
        maxBufferCompressed = Math.max(maxBufferCompressed, 1);
        maxBufferUncompressed = Math.max(maxBufferUncompressed, 1);
    }

    /**
     * @param size             the buffer's entries after this write and its compression
     * @param uncompressedSize the entries it would hold with no compression rule
     * @param removedOldest    whether this write had to apply REMOVE OLDEST
     */
    synchronized void countWrite(int size, long uncompressedSize, boolean removedOldest) {
        writes++;
        maxBufferCompressed = Math.max(maxBufferCompressed, size);
        maxBufferUncompressed = Math.max(maxBufferUncompressed, uncompressedSize);
        if (removedOldest) {
            this.removedOldest++;
        }
    }

    public synchronized long reads() {
        return reads + fastReads;
    }

    public synchronized long readsWithChoice() {
        return readsWithChoice;
    }

    public synchronized long staleReads() {
        return staleReads;
    }

    public synchronized long writes() {
        return writes;
    }

    /** Locations (instances, static field, sampled array elements) that got a write buffer. */
    public synchronized long locations() {
        return locations;
    }

    /** The most entries any of the field's buffers held after a write's compression (GC1, GC2, REMOVE OLDEST). */
    public synchronized int maxBufferCompressed() {
        return maxBufferCompressed;
    }

    /** The most entries any of the field's buffers would have held with no compression: 1 + its writes. */
    public synchronized long maxBufferUncompressed() {
        return maxBufferUncompressed;
    }

    /** Writes that dropped the oldest entry at the bound (REMOVE OLDEST). */
    public synchronized long removedOldest() {
        return removedOldest;
    }

    /**
     * The heuristics ({@link SameChoices} bits) that would have served some read of this run otherwise than its own
     * heuristic did: the others would have made this very run.
     */
    public synchronized int unlikeHeuristics() {
        return unlike;
    }

    /** True iff at least one stale value was served: the trial really tested this race. */
    public synchronized boolean exercised() {
        return staleReads > 0;
    }

    @Override
    public synchronized String toString() {
        return fieldKey + ": " + (reads + fastReads) + " reads, " + readsWithChoice + " with a choice, " + staleReads + " stale, "
                + writes + " writes, " + locations + " locations, max buffer " + maxBufferCompressed + " ("
                + maxBufferUncompressed + " uncompressed, " + removedOldest + " oldest removed)";
    }
}
