package dev.racetriage.agent.trace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Generates random feasible traces (JUMBLE §4.2's constraints: no operation of u before fork(t,u) or after
 * join(t,u); locks released only by their holder and acquired only when free): several threads forked from thread 0
 * and joined back, locks, volatiles, objects created by New, statics initialised by ClinitWrite, reads and writes.
 *
 * <p>Traces mimic programs that mostly synchronise: each location has a guard lock; an access to a shared location is
 * wrapped in acquire/release of its guard, objects are used by other threads only once their creator has released
 * something after creating them (published), private objects stay with their creator. Each trace has a
 * <em>sloppiness</em> (0 for about a third of the traces) — the probability that an access skips all of that — so
 * some traces are race-free and others race in many ways, including unsafe publication.
 *
 * <p>Every location is declared before its first access — by a New (instance fields) or a ClinitWrite (statics) —
 * because the two detectors legitimately differ on undeclared locations: the runtime form treats an unseen location
 * as written at ⊥ (it cannot hook every allocation), the literal h as in nobody's summary. With declarations, both
 * start every location from the same state, so their race sets must be equal, not merely related.
 */
public final class RandomTraces {
    /** Lock ids are {@code LOCK_BASE + i}. */
    public static final int LOCK_BASE = 100;
    /** Volatile ids are {@code VOLATILE_BASE + i}. */
    public static final int VOLATILE_BASE = 200;

    private final Random random;
    private final int maxThreads;
    private final int locks;
    private final int volatiles;
    private final int length;
    private final int values;

    public RandomTraces(long seed, int maxThreads, int locks, int volatiles, int length) {
        this(seed, maxThreads, locks, volatiles, length, 5);
    }

    /** @param values writes store values in [0, values) */
    public RandomTraces(long seed, int maxThreads, int locks, int volatiles, int length, int values) {
        if (locks < 1) {
            throw new IllegalArgumentException("need at least one lock to guard locations");
        }
        this.random = new Random(seed);
        this.maxThreads = maxThreads;
        this.locks = locks;
        this.volatiles = volatiles;
        this.length = length;
        this.values = values;
    }

    public Trace next() {
        return new Generation().run();
    }

    private final class Generation {
        final Trace.Builder b = Trace.builder();
        final double sloppiness = random.nextInt(3) == 0 ? 0 : random.nextDouble() * 0.25;
        final List<Integer> live = new ArrayList<>(List.of(0));
        final List<Integer> finished = new ArrayList<>();
        final Map<Integer, Integer> lockHolder = new HashMap<>();
        final List<Integer> locations = new ArrayList<>();
        final Map<Integer, Integer> creator = new HashMap<>();
        final Set<Integer> privateLocations = new HashSet<>();
        final Set<Integer> published = new HashSet<>();
        int nextThread = 1;
        int nextLocation = 0;
        int events = 0;

        Trace run() {
            while (events < length) {
                step(live.get(random.nextInt(live.size())));
            }
            return b.build();
        }

        void emit(Event e) {
            b.add(e);
            events++;
        }

        void step(int t) {
            int choice = random.nextInt(100);
            if (locations.isEmpty() || choice < 10) {
                declare(t);
            } else if (choice < 65) {
                access(t, pick(), random.nextInt(5) < 3);
            } else if (choice < 73) {
                int m = LOCK_BASE + random.nextInt(locks);
                Integer holder = lockHolder.get(m);
                if (holder == null) {
                    lockHolder.put(m, t);
                    emit(new Event.Acquire(t, m));
                } else if (holder == t) {
                    release(t, m);
                }
            } else if (choice < 83 && volatiles > 0) {
                int v = VOLATILE_BASE + random.nextInt(volatiles);
                if (random.nextBoolean()) {
                    emit(new Event.VolatileRead(t, v));
                } else {
                    emit(new Event.VolatileWrite(t, v));
                    publishAll(t);
                }
            } else if (choice < 89) {
                if (nextThread < maxThreads) {
                    emit(new Event.Fork(t, nextThread));
                    publishAll(t);
                    live.add(nextThread++);
                }
            } else if (choice < 94) {
                if (t != 0 && !lockHolder.containsValue(t)) {
                    live.remove(Integer.valueOf(t));
                    finished.add(t);
                }
            } else if (!finished.isEmpty()) {
                emit(new Event.Join(t, finished.remove(random.nextInt(finished.size()))));
            }
        }

        void declare(int t) {
            if (random.nextInt(4) == 0) {
                emit(new Event.ClinitWrite(t, nextLocation, random.nextInt(values)));
                published.add(nextLocation);
                locations.add(nextLocation++);
                return;
            }
            int count = 1 + random.nextInt(3);
            boolean isPrivate = random.nextInt(3) == 0;
            emit(new Event.New(t, nextLocation, count));
            for (int i = 0; i < count; i++) {
                creator.put(nextLocation, t);
                if (isPrivate) {
                    privateLocations.add(nextLocation);
                }
                locations.add(nextLocation++);
            }
        }

        void access(int t, int x, boolean read) {
            boolean sloppy = random.nextDouble() < sloppiness;
            boolean own = creator.getOrDefault(x, -1) == t;
            if (!sloppy && !own && (privateLocations.contains(x) || !published.contains(x))) {
                return;
            }
            Event e = read ? new Event.Read(t, x) : new Event.Write(t, x, random.nextInt(values));
            int guard = LOCK_BASE + x % locks;
            Integer holder = lockHolder.get(guard);
            if (sloppy || (own && privateLocations.contains(x)) || (holder != null && holder == t)) {
                emit(e);
            } else if (holder == null) {
                emit(new Event.Acquire(t, guard));
                emit(e);
                emit(new Event.Release(t, guard));
                publishAll(t);
            }
        }

        void release(int t, int m) {
            lockHolder.remove(m);
            emit(new Event.Release(t, m));
            publishAll(t);
        }

        /** After a release by t, objects t created are reachable by others through that synchronisation. */
        void publishAll(int t) {
            creator.forEach((x, c) -> {
                if (c == t) {
                    published.add(x);
                }
            });
        }

        int pick() {
            // favour recent locations so threads share them, as objects passed around do
            int n = locations.size();
            int window = Math.min(n, 6);
            return random.nextInt(4) == 0 ? locations.get(random.nextInt(n))
                    : locations.get(n - 1 - random.nextInt(window));
        }
    }
}
