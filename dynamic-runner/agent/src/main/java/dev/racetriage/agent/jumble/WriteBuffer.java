package dev.racetriage.agent.jumble;

import dev.racetriage.agent.hb.HappensBefore;
import dev.racetriage.agent.hb.ThreadState;
import dev.racetriage.agent.hb.VectorClock;

import java.util.Arrays;

/**
 * The write buffer of one jumbled location (JUMBLE §4.1, Operational PJMM): the sequence v1@K1 · … · vn@Kn of values
 * written with the writer's vector clock at the time, oldest first, initially the single entry default@⊥.
 *
 * <p>Rules, where they are coded: [WRITE] {@link #append}; [READ] {@link #visibleTo} — a read by t may return entry i
 * iff no later entry j has K_i ⊑ K_j ⊑ C(t), so the last entry is always visible; [GC2] in {@link #append} (the same
 * thread wrote the same value at the same clock: the earlier entry is redundant); [GC1] {@link #gc1} (drop entries no
 * live thread can see), run when the buffer is full; [REMOVE OLDEST] only when GC1 could not make room.
 *
 * <p>Values are stored as {@code long} bits (the runtime passes ints, floats' and doubles' raw bits, longs) or, for a
 * reference field, as object references compared by identity. For each entry, {@code dominatedBy[i]} has bit j set iff
 * j &gt; i and K_i ⊑ K_j, computed once at write time, so a read costs one clock comparison per entry.
 *
 * <p>Thread-safe by this object's monitor; no {@code java.util.concurrent}. A read allocates nothing; a write
 * allocates the copy of the writer's clock that stamps the entry. GC1 reads the clocks of other live threads without
 * their owners' cooperation: clocks only grow, so a stale read of C(u) is a lower bound, which can only make an entry
 * look visible to u — GC1 then keeps it.
 *
 * <p>No compression makes a hidden value visible, to any thread, known or not: REMOVE OLDEST drops entry 0, which
 * hides nothing (it has no earlier entries); GC2 drops i only for a later m with K_m = K_i, which hides whatever i hid;
 * GC1 drops, in one pass, every entry hidden from all the given readers — and if it drops i it also drops every
 * earlier k with K_k ⊑ K_i (the j that hides i from a reader hides k too), so no remaining entry was hidden only by
 * a dropped one. An incomplete reader set (a thread the runtime has not seen yet) therefore costs that thread
 * stale choices, never legality.
 *
 * <p>Sizes (JUMBLE Figure 10's last two columns): GC1 also runs whenever a write takes the buffer past the largest
 * size it has held so far, so the buffer never holds more than the largest number of entries that [GC1] and [GC2]
 * could not drop after some write — the paper's "maximum buffer size with compression", capped at the bound by
 * [REMOVE OLDEST]. GC1 drops only entries no known thread can see and heuristics choose among the visible entries by
 * rank, so when GC1 runs changes no value served to a known thread. "Without compression" is the size the buffer
 * would have if no rule ever dropped anything: the initial entry plus every write appended to this location.
 */
public final class WriteBuffer {
    /** How the stored bits are read. */
    public enum Kind {
        /** int, short, char, byte, boolean, float (raw bits): read atomically. */
        NARROW,
        /** long, double (raw bits): read non-atomically when the configuration says so (JMM §17.7). */
        WIDE,
        /** an object reference, compared by identity. */
        REFERENCE
    }

    private static final VectorClock BOTTOM = new VectorClock();

    private final Kind kind;
    private final JumbleConfig config;
    private final SeededRandom random;
    private final HappensBefore liveThreads;
    private final FieldStats stats;
    private final long[] bits;
    private final Object[] refs;
    private final VectorClock[] stamps;
    private final int[] writers;
    private final long[] dominatedBy;
    private int size;

    private boolean hasLastRead;
    private long lastReadBits;
    private Object lastReadRef;
    /**
     * Per reading thread (indexed by tid): its consecutive reads of this location that served something other than the
     * latest write's value (fairness). Per thread, not per location: in {@code while (sync[other] < sync[me])} the
     * other thread's own up-to-date reads of {@code sync[other]} would otherwise reset the count of this thread's
     * stale run forever, and the spin would never end (a live-lock the program does not have).
     */
    private int[] staleRuns = new int[4];
    /** Whether the read in progress was forced to the latest write by fairness. */
    private boolean forcedLatest;
    /** The heuristics that would have served the read in progress otherwise ({@link SameChoices}). */
    private int unlike;
    /** Every heuristic some read of this buffer was unlike so far: once all are, reads stop comparing. */
    private int unlikeSoFar;
    /** This buffer's heuristic's {@link SameChoices#bit}. */
    private final int ownHeuristic;
    private long reads;
    private long staleReads;
    /** Writes appended to this location (every [WRITE], whatever was dropped since). */
    private long appended;
    /** The largest size this buffer has held after a write's compression. */
    private int highWater = 1;
    private final Choice choice = new Choice();

    /**
     * @param liveThreads the engine whose live threads GC1 consults; null disables GC1 (then only GC2 and
     *                    REMOVE OLDEST compress)
     * @param stats       the field's shared counters, or null
     * @param seed        this location's seed (derive it from the run's seed, see {@link AdversarialMemory})
     */
    public WriteBuffer(Kind kind, long initialBits, Object initialRef, JumbleConfig config, long seed,
                       HappensBefore liveThreads, FieldStats stats) {
        this.kind = kind;
        this.config = config;
        this.random = new SeededRandom(seed);
        this.liveThreads = liveThreads;
        this.stats = stats;
        this.sequentiallyConsistent = config.heuristic().sequentiallyConsistent();
        this.ownHeuristic = SameChoices.bit(config.heuristic().name());
        int cap = config.bound();
        bits = new long[cap];
        refs = kind == Kind.REFERENCE ? new Object[cap] : null;
        stamps = new VectorClock[cap];
        writers = new int[cap];
        dominatedBy = new long[cap];
        // σ0: W(x) = default@⊥ (the runtime passes the field's value when the buffer is created)
        bits[0] = initialBits;
        if (refs != null) {
            refs[0] = initialRef;
        }
        stamps[0] = BOTTOM;
        writers[0] = -1;
        size = 1;
        synchronized (this) {
            publish();
        }
    }

    public Kind kind() {
        return kind;
    }

    /** [WRITE] of a primitive value (raw bits) by t. Inside a class initialiser the entry is stamped ⊥. */
    public synchronized void write(ThreadState t, long value) {
        append(t, value, null);
    }

    /** [WRITE] of a reference by t. */
    public synchronized void writeRef(ThreadState t, Object value) {
        append(t, 0, value);
    }

    /** A read of a primitive location by t: the bits of a visible write chosen by the heuristic (or two, if wide). */
    public long read(ThreadState t) {
        if (sequentiallyConsistent && fastPath) {
            countFastRead();
            return newest.bits;
        }
        Latest l = fastPath ? latest : null;
        if (l != null && onlyLatestFor(l, t)) {
            countFastRead();
            return l.bits;
        }
        synchronized (this) {
            return serve(t);
        }
    }

    /** A read of a reference location by t. */
    public Object readRef(ThreadState t) {
        if (sequentiallyConsistent && fastPath) {
            countFastRead();
            return newest.ref;
        }
        Latest l = fastPath ? latest : null;
        if (l != null && onlyLatestFor(l, t)) {
            countFastRead();
            return l.ref;
        }
        synchronized (this) {
            long vis = visibleTo(t.clock());
            Object v = refs[pick(t, vis)];
            finishRead(t, 0, v, Long.bitCount(vis) > 1, unlike);
            return v;
        }
    }

    /**
     * The fast path: whether a read by t has nothing to choose from and would change nothing the slow path keeps —
     * then it takes no lock and walks no clock. True when the latest write hides every earlier entry ({@link Latest})
     * and t has seen it (one component: the writer's clock is the stamp's own component, and a reader's component of
     * a thread can only reach that value through an edge from that thread at or after the write — the epoch property
     * the engine's cover epochs rely on too), t is in no run of stale reads (fairness has nothing to reset), and the
     * location's last value read already is the latest (the "-but-different" heuristics' memory has nothing to
     * learn). Those last two are read without the lock: a value a concurrent slow read is just changing makes this
     * read linearise just before that one. Anything else takes the slow path, which serves exactly what it did.
     */
    private boolean onlyLatestFor(Latest l, ThreadState t) {
        if (l.writerTid >= 0 && t.clock().get(l.writerTid) < l.writerClock) {
            return false;
        }
        int tid = t.tid();
        int[] runs = staleRuns;
        if (tid < runs.length && runs[tid] != 0) {
            return false;
        }
        return hasLastRead && (refs == null ? lastReadBits == l.bits : lastReadRef == l.ref);
    }

    private void countFastRead() {
        FAST_READS.getAndAdd(this, 1L);
        if (stats != null) {
            stats.countFastRead();
        }
    }

    /**
     * The latest write when it hides every earlier entry from a reader that has seen it (every earlier entry's clock
     * is below its clock, or it is the only entry): its value and its writer's epoch (writerTid -1: every reader has
     * seen it). Immutable; {@link #latest} is replaced under the monitor whenever the entries change.
     */
    private static final class Latest {
        final long bits;
        final Object ref;
        final int writerTid;
        final int writerClock;

        Latest(long bits, Object ref, int writerTid, int writerClock) {
            this.bits = bits;
            this.ref = ref;
            this.writerTid = writerTid;
            this.writerClock = writerClock;
        }
    }

    /** Null when the latest write leaves an earlier one visible to some reader that has seen it. */
    private volatile Latest latest;
    /** The latest write, whatever it hides: what {@code sc} serves. */
    private volatile Latest newest;
    /**
     * {@code sc} serves the latest write to every read (no stale value, no fairness, no torn value, no use of the last
     * value read), so its reads take no lock and walk no clock at all; they are counted as reads, not as reads with a
     * choice (under {@code sc} a choice never changes what is served).
     */
    private final boolean sequentiallyConsistent;
    /** False: every read takes the locked path (the property test that the fast path changes nothing). */
    private boolean fastPath = true;

    /** Every read through the lock and the clock walk; call before the buffer is shared. */
    void slowPathOnly() {
        fastPath = false;
    }
    /** Reads served by the fast path (added to {@link #reads}). */
    private volatile long fastReads;
    private static final java.lang.invoke.VarHandle FAST_READS;

    static {
        try {
            FAST_READS = java.lang.invoke.MethodHandles.lookup().findVarHandle(WriteBuffer.class, "fastReads", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Refreshes {@link #latest} after the entries changed. Holds the monitor. */
    private void publish() {
        int last = size - 1;
        long lastBit = 1L << last;
        for (int i = 0; i < last; i++) {
            if ((dominatedBy[i] & lastBit) == 0) {
                latest = null; // an earlier entry may stay visible next to the latest: a read has a choice
                newest = new Latest(bits[last], refs == null ? null : refs[last], -1, 0);
                return;
            }
        }
        int writer = writers[last];
        boolean everyone = last == 0 || writer < 0; // the only entry, or stamped ⊥ (class initialisation)
        latest = newest = new Latest(bits[last], refs == null ? null : refs[last], everyone ? -1 : writer,
                everyone ? 0 : stamps[last].get(writer));
    }

    private long serve(ThreadState t) {
        long vis = visibleTo(t.clock());
        int first = pick(t, vis);
        long value = bits[first];
        if (kind == Kind.WIDE && config.splitWide() && !config.heuristic().sequentiallyConsistent() && !forcedLatest
                && Long.bitCount(vis) > 1) {
            value = splitWide(vis, first);
            unlike = SameChoices.ALL; // a torn value is drawn at random: no run of another heuristic replays it
        }
        finishRead(t, value, null, Long.bitCount(vis) > 1, unlike);
        return value;
    }

    /**
     * Non-atomic long/double (JUMBLE §5.2): the top 32 bits of one visible write and the bottom 32 of another distinct
     * visible one — preferring one whose value differs — in a random order among the orders that give a value neither
     * write has. When neither does (the halves of 0.0 and 1.0: 1.0's bottom half is 0, so either tearing gives 0.0 or
     * 1.0 back), the heuristic's own choice is served whole, as the JMM also allows: tearing it would only hand the
     * heuristic's stale pick back as the latest value half the time.
     */
    private long splitWide(long vis, int first) {
        long others = vis & ~(1L << first);
        long differing = 0;
        for (long m = others; m != 0; m &= m - 1) {
            int i = Long.numberOfTrailingZeros(m);
            if (bits[i] != bits[first]) {
                differing |= 1L << i;
            }
        }
        int second = choice.randomIndex(differing != 0 ? differing : others);
        long a = bits[first];
        long b = bits[second];
        long topOfA = (a & 0xFFFF_FFFF_0000_0000L) | (b & 0xFFFF_FFFFL);
        long topOfB = (b & 0xFFFF_FFFF_0000_0000L) | (a & 0xFFFF_FFFFL);
        boolean aNew = topOfA != a && topOfA != b;
        boolean bNew = topOfB != a && topOfB != b;
        if (aNew && bNew) {
            return random.nextBoolean() ? topOfA : topOfB;
        }
        return aNew ? topOfA : bNew ? topOfB : a;
    }

    /** The heuristic's choice among the visible entries, or the latest write when fairness says so. */
    private int pick(ThreadState t, long vis) {
        choice.visible = vis;
        forcedLatest = staleRunOf(t) >= config.fairnessLimit();
        unlike = 0;
        if (forcedLatest || vis == 1L << (size - 1)) {
            return size - 1; // no choice: no heuristic consulted, no random number drawn (as on the fast path)
        }
        int i = config.heuristic().choose(choice);
        if (i < 0 || i >= size || (vis & (1L << i)) == 0) {
            // a heuristic bug must not serve an illegal value
            i = size - 1;
        }
        if (!sequentiallyConsistent && (unlikeSoFar | ownHeuristic) != SameChoices.ALL) {
            unlike = SameChoices.unlike(choice, i, ownHeuristic);
            unlikeSoFar |= unlike;
        }
        return i;
    }

    private int staleRunOf(ThreadState t) {
        int tid = t.tid();
        return tid < staleRuns.length ? staleRuns[tid] : 0;
    }

    private void finishRead(ThreadState t, long valueBits, Object valueRef, boolean hadChoice, int unlikeHeuristics) {
        boolean stale = kind == Kind.REFERENCE ? valueRef != refs[size - 1] : valueBits != bits[size - 1];
        int tid = t.tid();
        if (tid >= staleRuns.length) {
            staleRuns = Arrays.copyOf(staleRuns, Math.max(tid + 1, 2 * staleRuns.length));
        }
        staleRuns[tid] = stale ? staleRuns[tid] + 1 : 0;
        reads++;
        if (stale) {
            staleReads++;
        }
        hasLastRead = true;
        lastReadBits = valueBits;
        lastReadRef = valueRef;
        if (stats != null) {
            stats.countRead(hadChoice, stale, unlikeHeuristics);
        }
    }

    /** [READ]: bit i set iff entry i may be returned to a reader at clock c. */
    public synchronized long visibleTo(VectorClock c) {
        int last = size - 1;
        long lastBit = 1L << last;
        if (last > 0 && stamps[last].leq(c)) {
            // the reader has seen the latest write: it hides every i with K_i ⊑ K_last at once; in lock-ordered code
            // that is every entry, and the read costs one clock comparison
            long undecided = 0;
            for (int i = 0; i < last; i++) {
                if ((dominatedBy[i] & lastBit) == 0) {
                    undecided |= 1L << i;
                }
            }
            if (undecided == 0) {
                return lastBit;
            }
        }
        long hb = happenedBefore(c);
        long vis = 0;
        for (int i = 0; i < size; i++) {
            if ((dominatedBy[i] & hb) == 0) {
                vis |= 1L << i;
            }
        }
        return vis;
    }

    /**
     * Bit j set iff K_j ⊑ c. Transitivity decides most entries without a comparison: if K_last ⊑ c, so is every
     * entry it dominates; if K_i ⋢ c, so is every later entry that dominates K_i ({@code dominatedBy[i]}). GC1 asks
     * this for every live thread, and in lock-ordered code a thread that is up to date, or idle since before the
     * buffer's writes, then costs one or two comparisons instead of one per entry.
     */
    private long happenedBefore(VectorClock c) {
        int last = size - 1;
        long lastBit = 1L << last;
        long hb = 0;
        long not = 0;
        if (stamps[last].leq(c)) {
            hb = lastBit;
            for (int i = 0; i < last; i++) {
                if ((dominatedBy[i] & lastBit) != 0) {
                    hb |= 1L << i;
                }
            }
        } else {
            not = lastBit;
        }
        for (int i = 0; i < last; i++) {
            long bit = 1L << i;
            if (((hb | not) & bit) != 0) {
                continue;
            }
            if (stamps[i].leq(c)) {
                hb |= bit;
            } else {
                not |= bit | dominatedBy[i];
            }
        }
        return hb;
    }

    /**
     * [WRITE] of {@code value}, which thread {@code writer} wrote at its own clock {@code epoch} before this location
     * got its buffer (an element of an array the writer filled before it published the array in a jumbled field):
     * stamped with that epoch alone, so it is ordered before exactly the readers whose clock has reached the epoch —
     * a reader's component of a thread reaches a value only through an edge from that thread at or after it.
     */
    public synchronized void writeAtEpoch(int writer, int epoch, long value) {
        VectorClock stamp = new VectorClock();
        stamp.set(writer, epoch);
        append(stamp, writer, value, null);
    }

    private void append(ThreadState t, long value, Object ref) {
        append(t.inClinit() ? BOTTOM : new VectorClock(t.clock()), t.inClinit() ? -1 : t.tid(), value, ref);
    }

    /** [WRITE] with [GC2], then [GC1] and [REMOVE OLDEST] if the buffer is full. */
    private void append(VectorClock stamp, int writer, long value, Object ref) {
        // [GC2] same thread, same value, same clock: the earlier write is hidden wherever the later one is not.
        for (int i = 0; i < size; i++) {
            if (writers[i] == writer && sameValue(i, value, ref) && stamps[i].equals(stamp)) {
                remove(i);
                break;
            }
        }
        if (size == bits.length && liveThreads != null) {
            gc1(liveClocks());
        }
        boolean removedOldest = size == bits.length;
        if (removedOldest) {
            remove(0); // [REMOVE OLDEST]: sound, but costs adversarial freedom, so only at the bound
        }
        // K_i ⊑ K_last ⊑ stamp needs no comparison (transitivity): ordered writers compare one clock per write
        long byLast = size > 0 && stamps[size - 1].leq(stamp) ? 1L << (size - 1) : 0;
        for (int i = 0; i < size; i++) {
            if ((dominatedBy[i] & byLast) != 0 || (byLast != 0 && i == size - 1) || stamps[i].leq(stamp)) {
                dominatedBy[i] |= 1L << size;
            }
        }
        bits[size] = value;
        if (refs != null) {
            refs[size] = ref;
        }
        stamps[size] = stamp;
        writers[size] = writer;
        dominatedBy[size] = 0;
        size++;
        appended++;
        if (size > highWater && liveThreads != null) {
            // past the high-water mark: compress now, so the mark is what the rules could not drop (class comment);
            // below it a write costs no GC1, so a buffer whose garbage is collectable stays small and cheap
            gc1(liveClocks());
        }
        if (size > highWater) {
            highWater = size;
        }
        if (stats != null) {
            stats.countWrite(size, appended + 1, removedOldest);
        }
        publish();
    }

    /** The clocks of the engine's live threads, read as lower bounds (see the class comment). */
    private VectorClock[] liveClocks() {
        ThreadState[] live = liveThreads.liveThreads();
        VectorClock[] clocks = new VectorClock[live.length];
        for (int k = 0; k < live.length; k++) {
            clocks[k] = live[k].clock();
        }
        return clocks;
    }

    /**
     * [GC1]: drops every entry i such that for each reader clock C there is a later j with K_i ⊑ K_j ⊑ C — no reader
     * can see it now, and (clocks only grow) none ever will. Pass the clocks of every thread that may still read;
     * the entries are dropped all at once, which is what keeps a partial reader set sound (see the class comment).
     *
     * @return how many entries were dropped
     */
    public synchronized int gc1(VectorClock... readers) {
        long hidden = (1L << (size - 1)) - 1; // every entry but the last, until a reader can see it
        for (VectorClock c : readers) {
            long hb = happenedBefore(c);
            for (long m = hidden; m != 0; m &= m - 1) {
                int i = Long.numberOfTrailingZeros(m);
                if ((dominatedBy[i] & hb) == 0) {
                    hidden &= ~(1L << i);
                }
            }
        }
        int dropped = Long.bitCount(hidden);
        if (dropped > 0) {
            removeAll(hidden);
            publish();
        }
        return dropped;
    }

    /** Drops the entries of {@code drop} in one pass (GC1 usually drops all but one or two). */
    private void removeAll(long drop) {
        long keep = ~drop & (size == 64 ? -1L : (1L << size) - 1);
        int n = 0;
        for (long m = keep; m != 0; m &= m - 1) {
            int i = Long.numberOfTrailingZeros(m);
            bits[n] = bits[i];
            if (refs != null) {
                refs[n] = refs[i];
            }
            stamps[n] = stamps[i];
            writers[n] = writers[i];
            long d = dominatedBy[i];
            long packed = 0;
            int k = 0;
            for (long r = keep; r != 0; r &= r - 1) { // renumber the kept entries' bits
                if ((d & (r & -r)) != 0) {
                    packed |= 1L << k;
                }
                k++;
            }
            dominatedBy[n] = packed;
            n++;
        }
        for (int i = n; i < size; i++) {
            stamps[i] = null;
            if (refs != null) {
                refs[i] = null;
            }
        }
        size = n;
    }

    private boolean sameValue(int i, long value, Object ref) {
        return kind == Kind.REFERENCE ? refs[i] == ref : bits[i] == value;
    }

    private void remove(int k) {
        int tail = size - k - 1;
        System.arraycopy(bits, k + 1, bits, k, tail);
        if (refs != null) {
            System.arraycopy(refs, k + 1, refs, k, tail);
            refs[size - 1] = null;
        }
        System.arraycopy(stamps, k + 1, stamps, k, tail);
        System.arraycopy(writers, k + 1, writers, k, tail);
        System.arraycopy(dominatedBy, k + 1, dominatedBy, k, tail);
        size--;
        stamps[size] = null;
        long low = (1L << k) - 1;
        for (int i = 0; i < size; i++) {
            long d = dominatedBy[i];
            dominatedBy[i] = (d & low) | ((d >>> 1) & ~low);
        }
    }

    public synchronized int size() {
        return size;
    }

    public synchronized long bitsAt(int i) {
        check(i);
        return bits[i];
    }

    public synchronized Object refAt(int i) {
        check(i);
        return refs == null ? null : refs[i];
    }

    /** A copy of K_i. */
    public synchronized VectorClock stampAt(int i) {
        check(i);
        return new VectorClock(stamps[i]);
    }

    /** The values, oldest first (tests, diagnostics). */
    public synchronized long[] values() {
        return Arrays.copyOf(bits, size);
    }

    public synchronized long reads() {
        return reads + fastReads;
    }

    public synchronized long staleReads() {
        return staleReads;
    }

    /** The largest number of entries this buffer has held after a write (with GC1, GC2 and REMOVE OLDEST). */
    public synchronized int maxSize() {
        return highWater;
    }

    /** The entries this buffer would hold if no compression rule had dropped any: the initial one and every write. */
    public synchronized long uncompressedSize() {
        return appended + 1;
    }

    private void check(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("entry " + i + " of a write buffer with " + size + " entries");
        }
    }

    /** v1@K1 · v2@K2 · …, the notation of JUMBLE Figure 7. */
    @Override
    public synchronized String toString() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < size; i++) {
            if (i > 0) {
                sb.append(" · ");
            }
            sb.append(refs != null ? String.valueOf(refs[i]) : Long.toString(bits[i])).append('@').append(stamps[i]);
        }
        return sb.toString();
    }

    /** The heuristics' view of the read in progress; one per buffer, used under the buffer's monitor. */
    private final class Choice implements ReadChoice {
        long visible;

        @Override
        public int size() {
            return size;
        }

        @Override
        public long visible() {
            return visible;
        }

        @Override
        public boolean differsFromLastRead(int i) {
            if (!hasLastRead) {
                return true;
            }
            return kind == Kind.REFERENCE ? refs[i] != lastReadRef : bits[i] != lastReadBits;
        }

        @Override
        public SeededRandom random() {
            return random;
        }
    }
}
