package dev.racetriage.corpus;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs bodies on fresh threads, joins them, and rethrows the first failure so JUnit reports it. Start and join are
 * the only synchronisation it adds: what the test thread does before and after is ordered with the bodies, the bodies
 * are not ordered with each other.
 */
final class Concurrently {
  /**
   * How long a body that should run second waits first. A sleep orders nothing in the JMM, so the program stays racy;
   * it only makes the racy interleaving the test is about (the other thread's writes done, in real time, before this
   * thread reads) the usual one, since adversarial memory can only serve values already written.
   */
  static final long SETTLE_MILLIS = 30;

  interface Body {
    void run() throws Exception;
  }

  private Concurrently() {}

  static void run(Body... bodies) throws Throwable {
    Throwable[] failures = new Throwable[bodies.length];
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < bodies.length; i++) {
      int index = i;
      threads.add(new Thread(() -> {
        try {
          bodies[index].run();
        } catch (Throwable t) {
          failures[index] = t;
        }
      }, "corpus-" + i));
    }
    for (Thread thread : threads) thread.start();
    for (Thread thread : threads) thread.join();
    for (Throwable failure : failures) {
      if (failure != null) throw failure;
    }
  }

  /**
   * Runs the bodies as {@link #run} does, but each starts only once every thread has started (a start gate, as
   * jcstress and stress tests use): on a loaded machine a short body can otherwise end before the other thread is
   * scheduled, and bodies that never overlap in real time leave adversarial memory nothing unseen to serve. The gate
   * orders what precedes it; everything after it in one body stays unordered with the others.
   */
  static void together(Body... bodies) throws Throwable {
    CountDownLatch gate = new CountDownLatch(bodies.length);
    Body[] gated = new Body[bodies.length];
    for (int i = 0; i < bodies.length; i++) {
      Body body = bodies[i];
      gated[i] = () -> {
        gate.countDown();
        gate.await();
        body.run();
      };
    }
    run(gated);
  }

  /** Runs {@code body} after {@link #SETTLE_MILLIS}: the body that should observe the other thread's writes. */
  static Body settled(Body body) {
    return () -> {
      Thread.sleep(SETTLE_MILLIS);
      body.run();
    };
  }
}
