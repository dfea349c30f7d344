package dev.racetriage.agent.runtime;

import dev.racetriage.agent.jumble.SeededRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Optional schedule noise at jumbled accesses (RELAXER / Jinx style): a seeded coin decides, per access, whether the
 * thread yields or parks briefly, so other threads get to run between a racy write and the reads around it. Each
 * thread draws from its own generator, derived from the run's seed and the order in which threads first drew.
 */
public final class ScheduleNoise {
  /** Out of 64: how often an access yields, and how often it parks instead. */
  private static final int YIELD_IN_64 = 16;
  private static final int PARK_IN_64 = 2;
  private static final long PARK_NANOS = 50_000;

  private final long seed;
  private long threadsSeen;
  private final ThreadLocal<SeededRandom> random = new ThreadLocal<>();

  public ScheduleNoise(long seed) {
    this.seed = seed;
  }

  void atAccess() {
    SeededRandom r = random.get();
    if (r == null) {
      long n;
      synchronized (this) {
        n = threadsSeen++;
      }
      r = new SeededRandom(SeededRandom.mix(seed, n));
      random.set(r);
    }
    int draw = r.nextInt(64);
    if (draw < YIELD_IN_64) {
      Thread.yield();
    } else if (draw < YIELD_IN_64 + PARK_IN_64) {
      LockSupport.parkNanos(PARK_NANOS);
    }
  }
}
