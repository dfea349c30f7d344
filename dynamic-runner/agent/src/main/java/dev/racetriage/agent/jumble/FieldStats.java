package dev.racetriage.agent.jumble;

/**
 * Counters of one jumbled field over all its locations (instances): reads served, reads that had more than one
 * visible write to choose from, and reads that served a stale value (different from the latest write's). A race for
 * which no stale value was ever served was not exercised — it is <em>unexercised</em>, not benign.
 */
public final class FieldStats {
    private final String fieldKey;
    private long reads;
    private long readsWithChoice;
    private long staleReads;
    private long writes;

    public FieldStats(String fieldKey) {
        this.fieldKey = fieldKey;
    }

    public String fieldKey() {
        return fieldKey;
    }

    synchronized void countRead(boolean hadChoice, boolean stale) {
        reads++;
        if (hadChoice) {
            readsWithChoice++;
        }
        if (stale) {
            staleReads++;
        }
    }

    synchronized void countWrite() {
        writes++;
    }

    public synchronized long reads() {
        return reads;
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

    /** True iff at least one stale value was served: the trial really tested this race. */
    public synchronized boolean exercised() {
        return staleReads > 0;
    }

    @Override
    public synchronized String toString() {
        return fieldKey + ": " + reads + " reads, " + readsWithChoice + " with a choice, " + staleReads + " stale, "
                + writes + " writes";
    }
}
