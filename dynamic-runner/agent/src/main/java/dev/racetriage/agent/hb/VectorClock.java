package dev.racetriage.agent.hb;

import java.util.Arrays;
import jdk.internal.vm.annotation.DontInline;

/**
 * A vector clock K : Tid → Nat (JUMBLE §4.1), stored as a growable {@code int[]} indexed by the small thread ids the
 * {@link HappensBefore} engine hands out. Components beyond the array's length are 0, so a fresh clock is ⊥.
 *
 * <p>Not thread-safe: a thread's clock is mutated only by its own thread (or, for fork/join, under the
 * {@link ThreadState}'s monitor when the owner cannot run), a {@link SyncClock}'s only under its monitor.
 */
public final class VectorClock {
    private static final int[] EMPTY = new int[0];

    private int[] c;
    /**
     * A frozen copy of {@link #c} that {@link SyncClock}s share ({@link #frozenExcept}), or null. Valid while no
     * component other than {@link #frozenOwner}'s changed since it was taken: the owner's own ticks leave it valid
     * (a sharer adds the owner's component from its cover epoch), every other change drops it. Never mutated.
     */
    private int[] frozen;
    private int frozenOwner = -1;

    /** ⊥: every component 0. */
    public VectorClock() {
        this.c = EMPTY;
    }

    /** A copy of {@code other}. */
    public VectorClock(VectorClock other) {
        this.c = other.c.length == 0 ? EMPTY : other.c.clone();
    }

    /** K(tid); 0 for a thread this clock has never heard of. */
    public int get(int tid) {
        int[] a = c;
        return tid < a.length ? a[tid] : 0;
    }

    /** K := K[tid := value]. */
    public void set(int tid, int value) {
        ensure(tid + 1);
        if (c[tid] != value && tid != frozenOwner) {
            frozen = null;
        }
        c[tid] = value;
    }

    /**
     * inc_tid(K): increments the tid component and returns the new value. Saturates at {@link Integer#MAX_VALUE}
     * (2^31 releases by one thread): a stuck clock can only hide races after that point, while wrapping to negative
     * values would corrupt every comparison.
     */
    public int tick(int tid) {
        ensure(tid + 1);
        int v = c[tid];
        if (v == Integer.MAX_VALUE) {
            return v;
        }
        if (tid != frozenOwner) {
            frozen = null;
        }
        return c[tid] = v + 1;
    }

    /** K := K ⊔ other (point-wise max). Out of line: C2 unrolls the loop, once rather than into every caller. */
    @DontInline
    public void join(VectorClock other) {
        joinArray(other.c);
    }

    /** K := K ⊔ o, for a frozen array ({@link SyncClock}'s shared base). */
    @DontInline
    void joinArray(int[] o) {
        ensure(o.length);
        int[] a = c;
        boolean changed = false;
        for (int i = 0; i < o.length; i++) {
            if (o[i] > a[i]) {
                a[i] = o[i];
                changed = true;
            }
        }
        if (changed) {
            frozen = null;
        }
    }

    /** K := K ⊔ {tid(e) ↦ clock(e)}: the component an epoch stands for. */
    void joinEpoch(long epoch) {
        int tid = Epoch.tid(epoch);
        int value = Epoch.clock(epoch);
        if (value > get(tid)) {
            set(tid, value);
        }
    }

    /** K := o (a frozen array), see {@link #copyFrom}. */
    void copyFromArray(int[] o) {
        frozen = null;
        if (c.length < o.length) {
            c = o.clone();
            return;
        }
        System.arraycopy(o, 0, c, 0, o.length);
        Arrays.fill(c, o.length, c.length, 0);
    }

    /** Whether {@code array} is what {@link #frozenExcept}{@code (owner)} would return now, without allocating. */
    boolean isFrozen(int[] array, int owner) {
        return frozen == array && frozenOwner == owner;
    }

    /** Whether {@link #frozenExcept}{@code (owner)} would return an existing array (allocate nothing). */
    boolean hasFrozen(int owner) {
        return frozen != null && frozenOwner == owner;
    }

    /**
     * An immutable array equal to this clock in every component but {@code owner}'s (which may be lower): the same
     * array for every call while only {@code owner}'s component changes — a thread releasing many fresh objects
     * without acquiring anything new in between (a single-threaded CAS sequence) shares one array among all their
     * clocks instead of copying its clock into each. The caller joins the owner's component (its epoch) itself.
     */
    int[] frozenExcept(int owner) {
        int[] f = frozen;
        if (f == null || frozenOwner != owner) {
            f = c.length == 0 ? EMPTY : c.clone();
            frozen = f;
            frozenOwner = owner;
        }
        return f;
    }

    /** K := other (copy, no sharing). Out of line, as {@link #join}. */
    @DontInline
    public void copyFrom(VectorClock other) {
        copyFromArray(other.c);
    }

    /** K ⊑ other: every component of this is ≤ the matching one of other. */
    public boolean leq(VectorClock other) {
        int[] a = c;
        int[] o = other.c;
        for (int i = 0; i < a.length; i++) {
            if (a[i] != 0 && a[i] > (i < o.length ? o[i] : 0)) {
                return false;
            }
        }
        return true;
    }

    /** True iff the epoch (see {@link Epoch}) is ordered before or at this clock: clock(e) ≤ K(tid(e)). */
    public boolean covers(long epoch) {
        return Epoch.clock(epoch) <= get(Epoch.tid(epoch));
    }

    /** The number of components that may be non-zero (the array length); for diagnostics and sizing only. */
    public int width() {
        return c.length;
    }

    private void ensure(int length) {
        if (c.length < length) {
            // Exactly to the needed length: growing geometrically here lets two clocks that join each other leapfrog
            // (each doubles past the other's length) without bound. Lengths stay ≤ 1 + the largest thread id seen,
            // and a clock grows only when a thread id new to it appears.
            c = Arrays.copyOf(c, length);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VectorClock v && leq(v) && v.leq(this);
    }

    @Override
    public int hashCode() {
        int last = c.length;
        while (last > 0 && c[last - 1] == 0) {
            last--;
        }
        return Arrays.hashCode(Arrays.copyOf(c, last));
    }

    /** ⟨k0,k1,…⟩ with trailing zeros dropped, ⊥ for the all-zero clock; the notation of JUMBLE Figure 7. */
    @Override
    public String toString() {
        int last = c.length;
        while (last > 0 && c[last - 1] == 0) {
            last--;
        }
        if (last == 0) {
            return "⊥";
        }
        StringBuilder sb = new StringBuilder("⟨");
        for (int i = 0; i < last; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(c[i]);
        }
        return sb.append('⟩').toString();
    }

    /** A clock with the given components (tests and traces). */
    public static VectorClock of(int... components) {
        VectorClock v = new VectorClock();
        if (components.length > 0) {
            v.c = components.clone();
        }
        return v;
    }

    /** The clock {@code base} ⊔ {tid(e) ↦ clock(e)} (a {@link SyncClock}'s shared form, made explicit). */
    static VectorClock of(int[] base, long epoch) {
        VectorClock v = new VectorClock();
        v.copyFromArray(base);
        v.joinEpoch(epoch);
        return v;
    }
}
