package dev.racetriage.examples;

/** The synchronised counterpart of {@link BusyWait}: the flag is volatile, so it publishes the result. */
public final class VolatileBusyWait {
  volatile boolean done;
  long result;

  public void produce(int n) {
    long sum = 0;
    for (int i = 1; i <= n; i++) {
      sum += i;
    }
    result = sum;
    done = true;
  }

  public long awaitResult() {
    while (!done) {
      Thread.yield();
    }
    return result;
  }
}
