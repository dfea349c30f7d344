package dev.racetriage.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.racetriage.agent.detect.FieldRaces;
import dev.racetriage.agent.detect.RunSummary;
import dev.racetriage.agent.detect.SiteTable;
import java.util.List;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The runtime driven through its hooks from real threads, as instrumented code drives it. Threads are ordered for the
 * test with a JDK semaphore, which (without the agent) creates no happens-before edge in the runtime: only the hooks
 * the test calls do.
 */
class DetectRuntimeTest {
  private DetectRuntime runtime;
  private final FieldRegistry fields = new FieldRegistry();

  @BeforeEach
  void install() {
    runtime = new DetectRuntime(new SiteTable(), fields, new RunSummary(), 2);
    Hooks.install(runtime);
  }

  @AfterEach
  void uninstall() {
    Hooks.install(null);
  }

  /** Runs the steps one after the other, each on its own thread, forked from this thread before any step runs. */
  private static void inTurns(Runnable... steps) throws InterruptedException {
    Semaphore[] turns = new Semaphore[steps.length];
    Thread[] threads = new Thread[steps.length];
    for (int i = 0; i < steps.length; i++) {
      turns[i] = new Semaphore(0);
      int index = i;
      threads[i] = new Thread(() -> {
        turns[index].acquireUninterruptibly();
        steps[index].run();
        if (index + 1 < steps.length) {
          turns[index + 1].release();
        }
      });
      Hooks.threadStarting(threads[i]);
      threads[i].start();
    }
    turns[0].release();
    for (Thread t : threads) {
      t.join();
    }
  }

  private List<String> racyFields() {
    return runtime.aggregator().fields().stream().map(FieldRaces::fieldKey).toList();
  }

  @Test
  void anElementWrittenAfterTheReleaseTheReaderAcquiredRacesWhileOneWrittenBeforeDoesNot() throws Exception {
    int[] array = new int[2];
    Object lock = new Object();
    Hooks.arrayInField(array, fields.id("pkg/Holder", "cells"));
    Semaphore released = new Semaphore(0);
    Semaphore acquired = new Semaphore(0);
    Semaphore written = new Semaphore(0);
    // one writer: element 0 before its release, element 1 after the reader acquired — so the array's single-writer
    // summary (element 1's epoch) is not covered by the reader and every element must be checked on its own
    Thread writer = new Thread(() -> {
      Hooks.writeElement(array, 0, 1);
      Hooks.monitorExit(lock);
      released.release();
      acquired.acquireUninterruptibly();
      Hooks.writeElement(array, 1, 2);
      written.release();
    });
    Thread reader = new Thread(() -> {
      released.acquireUninterruptibly();
      Hooks.monitorEnter(lock);
      acquired.release();
      written.acquireUninterruptibly();
      Hooks.readElement(array, 0, 3);
      Hooks.readElement(array, 1, 4);
    });
    for (Thread t : new Thread[] {writer, reader}) {
      Hooks.threadStarting(t);
      t.start();
    }
    writer.join();
    reader.join();
    assertEquals(List.of("pkg.Holder.cells[]"), racyFields());
    assertEquals(1, runtime.aggregator().totalReports(), "only element 1's read races");
  }

  @Test
  void readsCoveredByTheSingleWritersLastEpochAreNotReported() throws InterruptedException {
    Object box = new Object();
    int value = fields.id("pkg/Box", "value");
    Object lock = new Object();
    inTurns(
        () -> {
          Hooks.writeField(box, value, 1);
          Hooks.writeField(box, value, 1);
          Hooks.monitorExit(lock);
        },
        () -> {
          Hooks.monitorEnter(lock);
          Hooks.readField(box, value, 2);
        });
    assertEquals(List.of(), racyFields());
  }

  @Test
  void aSecondWriterMakesReadsCheckEveryLocation() throws InterruptedException {
    Object box = new Object();
    int a = fields.id("pkg/Box", "a");
    int b = fields.id("pkg/Box", "b");
    Object lock = new Object();
    inTurns(
        () -> {
          Hooks.writeField(box, a, 1);
          Hooks.monitorExit(lock);
        },
        () -> {
          Hooks.monitorEnter(lock);
          Hooks.writeField(box, b, 2);
          Hooks.readField(box, a, 3);
        },
        () -> Hooks.readField(box, b, 4));
    assertEquals(List.of("pkg.Box.b"), racyFields());
  }

  @Test
  void arraysTooLongToShadowAreCountedNotChecked() throws InterruptedException {
    int[] huge = new int[ObjectShadow.MAX_TRACKED_ELEMENTS + 1];
    Semaphore written = new Semaphore(0);
    Thread writer = new Thread(() -> {
      Hooks.writeElement(huge, 5, 1);
      written.release();
    });
    Thread reader = new Thread(() -> {
      written.acquireUninterruptibly();
      Hooks.readElement(huge, 5, 2);
      Hooks.writeElement(huge, 6, 3);
    });
    for (Thread t : new Thread[] {writer, reader}) {
      Hooks.threadStarting(t);
      t.start();
    }
    writer.join();
    reader.join();
    assertEquals(List.of(), racyFields());
    assertEquals(1, runtime.untrackedArrays());
  }
}
