package dev.racetriage.agent.hb;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The shared form of {@link SyncClock} (a release stores a reference to the releasing thread's frozen clock plus its
 * epoch, see {@link VectorClock#frozenExcept}) against the plain vector-clock rules of JUMBLE's Figure 6 computed on
 * separate arrays: random traces of acquires, releases, acquire-releases (CAS sequences, the shape the sharing is
 * for), forks and joins over a few threads and many sync objects; after every step each thread's clock and each
 * touched sync clock must equal the model's. A frozen array that survived a change of another component (the
 * mutant: never dropping it on a join, or on a set of another thread's component) makes a later release publish a
 * stale clock and fails here; so does a shared form whose cover an acquire replaced.
 */
class SharedSyncClockPropertyTest {
    private static final int THREADS = 4;
    private static final int SYNCS = 12;

    @Test
    void randomTracesMatchThePlainVectorClockRules() {
        for (int seed = 0; seed < 400; seed++) {
            runTrace(new Random(seed), seed);
        }
    }

    private static void runTrace(Random random, int seed) {
        HappensBefore hb = new HappensBefore();
        ThreadState[] threads = new ThreadState[THREADS];
        int[][] model = new int[THREADS][];
        boolean[] started = new boolean[THREADS];
        boolean[] alive = new boolean[THREADS];
        for (int t = 0; t < THREADS; t++) { // ids 0..3 in order; all but t0 wait to be forked
            threads[t] = hb.newThread("t" + t);
            model[t] = new int[THREADS];
            model[t][t] = 1;
        }
        started[0] = true;
        alive[0] = true;
        SyncClock[] syncs = new SyncClock[SYNCS];
        int[][] syncModel = new int[SYNCS][THREADS];
        for (int i = 0; i < SYNCS; i++) {
            syncs[i] = new SyncClock();
        }
        int steps = 60 + random.nextInt(120);
        for (int step = 0; step < steps; step++) {
            int t = random.nextInt(THREADS);
            if (!started[t]) { // fork it from a live thread
                int parent = pickAlive(random, alive);
                hb.fork(threads[parent], threads[t]);
                join(model[t], model[parent]);
                model[parent][parent]++;
                started[t] = true;
                alive[t] = true;
                continue;
            }
            if (!alive[t]) {
                continue;
            }
            // a single-threaded run of CASes on fresh objects: the sharing's case
            int s = random.nextInt(SYNCS);
            switch (random.nextInt(6)) {
                case 0 -> { // acquire
                    hb.acquire(threads[t], syncs[s]);
                    join(model[t], syncModel[s]);
                }
                case 1 -> { // release
                    hb.release(threads[t], syncs[s]);
                    join(syncModel[s], model[t]);
                    model[t][t]++;
                }
                case 2, 3 -> { // acquire-release (CAS); sometimes a fresh object, as a skip list's new node
                    if (random.nextInt(3) == 0) {
                        syncs[s] = new SyncClock();
                        syncModel[s] = new int[THREADS];
                    }
                    hb.acquireRelease(threads[t], syncs[s]);
                    join(model[t], syncModel[s]);
                    syncModel[s] = model[t].clone();
                    model[t][t]++;
                }
                case 4 -> { // join another thread that ended
                    int u = random.nextInt(THREADS);
                    if (u != t && alive[u] && random.nextInt(4) == 0) {
                        hb.join(threads[t], threads[u]);
                        join(model[t], model[u]);
                        model[u][u]++;
                        alive[u] = false;
                    }
                }
                default -> { // the owner's own epoch moves: release to an object nobody acquires
                    SyncClock scratch = new SyncClock();
                    hb.release(threads[t], scratch);
                    assertEquals(vc(model[t]), scratch.snapshot(), "seed " + seed + " step " + step);
                    model[t][t]++;
                }
            }
            for (int u = 0; u < THREADS; u++) {
                assertEquals(vc(model[u]), threads[u].clock(), "seed " + seed + " step " + step + " thread " + u);
            }
            assertEquals(vc(syncModel[s]), syncs[s].snapshot(), "seed " + seed + " step " + step + " sync " + s);
        }
        for (int s = 0; s < SYNCS; s++) {
            assertEquals(vc(syncModel[s]), syncs[s].snapshot(), "seed " + seed + " end, sync " + s);
        }
    }

    /** Releases of fresh objects with nothing acquired in between share one array: the memory the form saves. */
    @Test
    void aCasSequenceOnFreshObjectsSharesOneFrozenArray() {
        HappensBefore hb = new HappensBefore();
        ThreadState t = hb.newThread("t");
        hb.newThread("u");
        t.clock().set(1, 5);
        VectorClock clock = t.clock();
        int[] first = null;
        for (int i = 0; i < 100; i++) {
            SyncClock node = new SyncClock();
            hb.acquireRelease(t, node);
            int[] frozen = clock.frozenExcept(t.tid());
            if (first == null) {
                first = frozen;
            }
            assertSame(first, frozen, "release " + i);
            assertEquals(VectorClock.of(1 + i, 5), node.snapshot());
        }
        SyncClock other = new SyncClock();
        ThreadState u = hb.newThread("v");
        hb.release(u, other);
        hb.acquire(t, other); // another component moves: the next release freezes a new array
        SyncClock next = new SyncClock();
        hb.release(t, next);
        assertEquals(1, next.snapshot().get(2));
        assertEquals(false, clock.frozenExcept(t.tid()) == first);
    }

    private static int pickAlive(Random random, boolean[] alive) {
        for (;;) {
            int p = random.nextInt(alive.length);
            if (alive[p]) {
                return p;
            }
        }
    }

    private static void join(int[] into, int[] from) {
        for (int i = 0; i < into.length; i++) {
            into[i] = Math.max(into[i], from[i]);
        }
    }

    private static VectorClock vc(int[] components) {
        return VectorClock.of(Arrays.copyOf(components, components.length));
    }
}
