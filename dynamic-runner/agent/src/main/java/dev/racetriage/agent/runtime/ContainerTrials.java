package dev.racetriage.agent.runtime;

import dev.racetriage.agent.instrument.ContainerModel;
import dev.racetriage.agent.jumble.FieldStats;
import dev.racetriage.agent.jumble.SeededRandom;
import dev.racetriage.agent.hb.Epoch;
import dev.racetriage.agent.hb.ThreadState;
import dev.racetriage.agent.hb.VectorClock;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Trials of container races (jumble mode with a key {@code pkg.Cls.map{}}): adversarial memory does not apply inside
 * {@code java.*}, so the schedule is perturbed at the modelled calls on the container under trial instead. A container
 * is under trial once it was seen in its holder field ({@link #held}) or, for a key {@code pkg.Cls.method(){}}, in a
 * modelled call of that method. Every modelled call on it is bracketed by {@link #enter}/{@link #exit}: under the
 * heuristic {@code perturb} a seeded coin makes the caller wait at the call (up to 1 ms) for another thread to reach a
 * call on the same container (RaceFuzzer's postponement, Sen PLDI 2008: both then go at once, so their calls run side
 * by side) or yield; a container whose calls waited alone {@value #LONELY_WAITS} times in a row is not waited at until
 * another thread calls it. Under {@code sc} (the control) nothing waits. In both, a call is counted as a read of the
 * key, and a call that started while another thread's call on the same container was running or waiting to run, one
 * of them a mutator, as an <em>overlap</em> — the report's stale reads: a run without one did not exercise the race.
 * Under {@code sc} a call that <em>interleaves</em> also counts: its thread called the container before, the last
 * call came from another thread and is not ordered before this one by happens-before (the run's clocks), and one of
 * those two calls is a mutator (A, B, A; after B ended and was joined, or handed the container over through a lock,
 * A's call is ordered with B's and does not count; a B that ended without being joined still counts). Without
 * perturbation the real schedule exercises the race through the order of the unsynchronised calls as much as through
 * their overlap (a caller's two calls meant as one, a line and its newline, are cut by the other thread's), so a
 * control failure in such a run is the race's.
 * Under {@code perturb} only overlaps count: they are what the perturbation makes, and what a benign verdict claims.
 */
public final class ContainerTrials {
  /** The heuristic that perturbs the schedule at container calls. */
  public static final String PERTURB = "perturb";
  /** Out of 64: how often a call waits for another thread, and how often it yields instead. */
  private static final int WAIT_IN_64 = 40;
  private static final int YIELD_IN_64 = 12;
  /** The longest a call waits for another thread; spinning first, then short parks. */
  private static final long WAIT_NANOS = 1_000_000;
  private static final long SPIN_NANOS = 100_000;
  /** Waits that timed out in a row on one container before waiting stops until another thread calls it. */
  private static final int LONELY_WAITS = 8;

  private static volatile Run run;

  private ContainerTrials() {
  }

  /** Whether {@code heuristic} is one a container key may be tried under. */
  public static boolean isContainerHeuristic(String heuristic) {
    return PERTURB.equals(heuristic) || "sc".equals(heuristic);
  }

  /** The read heuristic adversarial memory uses in a run under {@code heuristic} ({@code perturb} serves no stale value). */
  public static String memoryHeuristic(String heuristic) {
    return PERTURB.equals(heuristic) ? "sc" : heuristic;
  }

  /** A new run: fresh counters, no container under trial yet (JumbleRuntime's construction and beginRun). */
  static void begin(JumbleTargets targets, String heuristic, long seed) {
    FieldStats[] stats = new FieldStats[targets.keys().size()];
    boolean any = false;
    for (int slot = 0; slot < stats.length; slot++) {
      if (targets.key(slot).endsWith("{}")) {
        stats[slot] = new FieldStats(targets.key(slot));
        any = true;
      }
    }
    run = any ? new Run(stats, PERTURB.equals(heuristic), seed) : null;
  }

  /** The counters of the container key in {@code slot} in this run, or null for another kind of key. */
  static FieldStats stats(int slot) {
    Run r = run;
    return r == null || slot >= r.stats.length ? null : r.stats[slot];
  }

  /** The holder field of the container key in {@code slot} was read or written with {@code value}. */
  public static void held(Object value, int slot) {
    Run r = run;
    if (r == null || value == null || !ContainerModel.isModelled(value.getClass())) {
      return;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return;
    }
    try {
      synchronized (r) {
        r.name(value, slot);
      }
    } finally {
      t.busy = false;
    }
  }

  /**
   * Before a modelled call that touches {@code container} ({@code write} 1 for a mutator); {@code unnamedSlot} is the
   * slot of the key {@code pkg.Cls.method(){}} of the calling method, or -1.
   */
  public static void enter(Object container, int write, int unnamedSlot) {
    Run r = run;
    if (r == null || container == null || !ContainerModel.isModelled(container.getClass())) {
      return;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return;
    }
    try {
      JumbleRuntime jumble = JumbleHooks.installed();
      r.enter(container, write != 0, unnamedSlot, jumble == null ? null : jumble.threadState(t));
    } finally {
      t.busy = false;
    }
  }

  /** After the call returned. */
  public static void exit(Object container) {
    Run r = run;
    if (r == null || container == null) {
      return;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return;
    }
    try {
      r.exit(container);
    } finally {
      t.busy = false;
    }
  }

  /** One call in progress. */
  private record Call(Thread thread, boolean write) {}

  /** The calls in progress on one container, its waiter, and who called it last. */
  private static final class Calls {
    final List<Call> running = new ArrayList<>(2);
    Waiter waiter;
    Thread lastCaller;
    int lonelyWaits;
  }

  private static final class Waiter {
    final Thread thread = Thread.currentThread();
    volatile boolean released;
    volatile boolean going;
  }

  /**
   * A container under trial: its key's slot, and for the control's interleavings the epoch of its last call (the
   * calling thread's, {@link #NO_CALL} before any), whether that call was a mutator, and the threads that called it
   * (ids; threads are few).
   */
  private static final class Tried {
    static final long NO_CALL = -1L;
    final int slot;
    long lastEpoch = NO_CALL;
    boolean lastWrote;
    long[] callers = new long[0];

    Tried(int slot) {
      this.slot = slot;
    }

    /**
     * Records a call by the current thread (Java id {@code me}, epoch {@code now}, clock {@code clock}); true when it
     * interleaves: this thread called before, the last call was another thread's and is not ordered before this one,
     * and this call or that one is a mutator.
     */
    boolean interleaves(long me, long now, VectorClock clock, boolean write) {
      boolean known = false;
      for (long c : callers) {
        known |= c == me;
      }
      long other = lastEpoch;
      boolean interleaves = known && other != NO_CALL && Epoch.tid(other) != Epoch.tid(now) && (write || lastWrote)
          && !clock.covers(other);
      if (!known) {
        callers = java.util.Arrays.copyOf(callers, callers.length + 1);
        callers[callers.length - 1] = me;
      }
      lastEpoch = now;
      lastWrote = write;
      return interleaves;
    }
  }

  private static final class Run {
    final FieldStats[] stats;
    final boolean perturb;
    final long seed;
    /** Container under trial → its slot and recent callers (weak: a container never lives longer for being tried). */
    final WeakIdentityTable<Tried> slots = new WeakIdentityTable<>();
    /** Calls in progress, only while there are some (strong references, removed at exit). */
    final IdentityHashMap<Object, Calls> calls = new IdentityHashMap<>();
    final ThreadLocal<SeededRandom> random = new ThreadLocal<>();
    long threadsSeen;

    Run(FieldStats[] stats, boolean perturb, long seed) {
      this.stats = stats;
      this.perturb = perturb;
      this.seed = seed;
    }

    /**
     * Registers the call (counting an overlap with another thread's running call), then, under {@code perturb}, may
     * wait for another thread to reach a call on the container: the call counts as running while it waits, so the
     * thread that arrives sees it, releases it, waits until it goes, and both run their calls at once.
     */
    void enter(Object container, boolean write, int unnamedSlot, ThreadState state) {
      Thread me = Thread.currentThread();
      Waiter wait = null;
      Waiter release = null;
      int draw = 64;
      synchronized (this) {
        Tried tried = slots.get(container);
        if (tried == null && unnamedSlot >= 0) {
          tried = name(container, unnamedSlot);
        }
        if (tried == null) {
          return;
        }
        Calls calls = calls(container);
        boolean overlap = false;
        for (int i = calls.running.size() - 1; i >= 0; i--) {
          Call c = calls.running.get(i);
          if (c.thread == me) {
            calls.running.remove(i); // a call of ours that threw: it is not running any more
          } else if (write || c.write) {
            overlap = true;
          }
        }
        if (calls.lastCaller != me) {
          calls.lonelyWaits = 0;
        }
        calls.lastCaller = me;
        calls.running.add(new Call(me, write));
        boolean interleaves = state != null && tried.interleaves(me.getId(), state.epoch(), state.clock(), write);
        stats[tried.slot].countContainerCall(overlap || (!perturb && interleaves));
        if (perturb) {
          draw = draw(me);
          if (calls.waiter != null && calls.waiter.thread != me) {
            release = calls.waiter; // both go now: their calls run side by side
            calls.waiter = null;
          } else if (draw < WAIT_IN_64 && calls.waiter == null && calls.running.size() == 1
              && calls.lonelyWaits < LONELY_WAITS) {
            wait = new Waiter();
            calls.waiter = wait;
          }
        }
      }
      if (release != null) {
        release.released = true;
        long start = System.nanoTime();
        while (!release.going && System.nanoTime() - start < SPIN_NANOS) {
          Thread.onSpinWait();
        }
        jitter(draw);
      } else if (wait != null) {
        if (await(wait)) {
          wait.going = true;
          jitter(draw);
        } else {
          synchronized (this) {
            Calls calls = calls(container);
            if (calls.waiter == wait) {
              calls.waiter = null;
            }
            calls.lonelyWaits++;
          }
        }
      } else if (draw < WAIT_IN_64 + YIELD_IN_64) {
        Thread.yield();
      }
    }

    /** A few seeded spins after a meeting, so the two calls start at varying offsets. */
    private static void jitter(int draw) {
      for (int i = 0; i < (draw * 7) % 32; i++) {
        Thread.onSpinWait();
      }
    }

    void exit(Object container) {
      Thread me = Thread.currentThread();
      synchronized (this) {
        Calls c = calls.get(container);
        if (c == null) {
          return;
        }
        for (int i = c.running.size() - 1; i >= 0; i--) {
          if (c.running.get(i).thread == me) {
            c.running.remove(i);
            break;
          }
        }
        if (c.running.isEmpty() && c.waiter == null) {
          calls.remove(container); // keeps lastCaller only while calls run: a later caller starts afresh
        }
      }
    }

    /** The container's slot, {@code slot} unless it already had one. Called holding this run's monitor. */
    Tried name(Object container, int slot) {
      return slots.getOrCreate(container, new java.util.function.Function<Object, Tried>() {
        @Override
        public Tried apply(Object c) {
          return new Tried(slot);
        }
      });
    }

    private Calls calls(Object container) {
      Calls c = calls.get(container);
      if (c == null) {
        c = new Calls();
        calls.put(container, c);
      }
      return c;
    }

    /** Whether another thread reached the container before the wait ran out. */
    private static boolean await(Waiter w) {
      long start = System.nanoTime();
      while (!w.released) {
        long waited = System.nanoTime() - start;
        if (waited >= WAIT_NANOS) {
          return false;
        }
        if (waited < SPIN_NANOS) {
          Thread.onSpinWait();
        } else {
          LockSupport.parkNanos(20_000);
        }
      }
      return true;
    }

    private int draw(Thread me) {
      SeededRandom r = random.get();
      if (r == null) {
        r = new SeededRandom(SeededRandom.mix(seed, threadsSeen++));
        random.set(r);
      }
      return r.nextInt(64);
    }
  }
}
