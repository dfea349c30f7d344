package dev.racetriage.examples;

import java.util.ArrayList;
import java.util.List;

/** Runs bodies on fresh threads, joins them, and rethrows the first failure so JUnit reports it. */
final class Concurrently {
  interface Body {
    void run() throws Exception;
  }

  private Concurrently() {}

  static void run(Body... bodies) throws Throwable {
    Throwable[] failures = new Throwable[bodies.length];
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < bodies.length; i++) {
      int index = i;
      Thread thread = new Thread(() -> {
        try {
          bodies[index].run();
        } catch (Throwable t) {
          failures[index] = t;
        }
      }, "racy-shapes-" + i);
      threads.add(thread);
    }
    for (Thread thread : threads) thread.start();
    for (Thread thread : threads) thread.join();
    for (Throwable failure : failures) {
      if (failure != null) throw failure;
    }
  }
}
