package dev.racetriage.agent.instrument;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Never run: a class with one of each instruction shape the instrumenter rewrites. The agent instruments its bytes
 * once at start-up, before registering the transformer, so every class the transformer needs is loaded then — a
 * transformer that first loads its own classes while transforming another class fails with
 * ClassCircularityError.
 */
@SuppressWarnings("unused")
final class WarmUpSample {
  private static final VarHandle COUNT;
  private static int shared;
  private static volatile int published;
  private int count;
  private long wide;
  private volatile Object ref;
  private final int[] slots = new int[2];

  static {
    try {
      COUNT = MethodHandles.lookup().findVarHandle(WarmUpSample.class, "count", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  synchronized void everything(Thread thread, long[] longs) throws InterruptedException {
    count = count + slots[0];
    wide = wide + longs[0];
    longs[1] = wide;
    slots[1] = shared;
    shared = published;
    published = count;
    ref = ref == null ? this : null;
    synchronized (slots) {
      slots.wait(1);
    }
    if (!thread.isAlive()) {
      COUNT.compareAndSet(this, 0, 1);
    }
  }

  /** Counted loops whose element checks move to the exits: a header exit, a return exit, a downward loop. */
  static int loops(int[] in, long[] out, int n) {
    int sum = 0;
    for (int i = 0; i < n; i++) {
      out[i] += in[i];
    }
    for (int i = n - 1; i >= 0; i--) {
      if (in[i] == 0) {
        return i;
      }
      sum += in[i];
    }
    return sum;
  }

  /** Bulk array calls (BulkArrayCalls): a copy, a fill and a clone. */
  static int[] bulk(int[] in) {
    int[] out = in.clone();
    System.arraycopy(in, 0, out, 0, out.length);
    java.util.Arrays.fill(out, 0, 1, 7);
    return java.util.Arrays.copyOf(out, 1);
  }

  static synchronized void statics() {
    shared++;
  }
}
