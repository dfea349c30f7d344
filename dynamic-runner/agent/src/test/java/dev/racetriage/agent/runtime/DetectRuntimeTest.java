package dev.racetriage.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.detect.FieldRaces;
import dev.racetriage.agent.detect.RaceKind;
import dev.racetriage.agent.detect.RunSummary;
import dev.racetriage.agent.detect.SiteTable;
import java.util.List;
import java.util.Map;
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
    String[] names = new String[steps.length];
    for (int i = 0; i < names.length; i++) {
      names[i] = "step-" + i;
    }
    inTurnsNamed(names, steps);
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

  /** Compact owner records: which fields one thread wrote in one epoch, and from where — no state per field. */
  @Test
  void anUnorderedReaderOfACompactObjectRacesOnTheWrittenFieldOnlyWithItsSite() throws InterruptedException {
    Object box = new Object();
    int written = fields.id("pkg/Box", "written");
    int untouched = fields.id("pkg/Box", "untouched");
    inTurnsNamed(new String[] {"owner", "reader"},
        () -> {
          Hooks.writeField(box, written, 1);
          Hooks.writeField(box, written, 5); // the same field again, from another site: the last site is kept
        },
        () -> {
          Hooks.readField(box, untouched, 2); // never written: its default is visible to everyone
          Hooks.readField(box, written, 3);
        });
    assertEquals(List.of("pkg.Box.written"), racyFields());
    var race = runtime.aggregator().fields().get(0).first();
    assertEquals("owner", race.previous().threadName());
    assertEquals(runtime.sites().site(5), race.previous().site());
  }

  /**
   * The compact records' table by field id, grown and probed: forty fields (ids interleaved with another class's, so
   * their low bits collide), written in one epoch, each twice from a second site in another order; an unordered
   * reader of every other field races on exactly those, each with its last site.
   */
  @Test
  void aCompactObjectWithManyFieldsKeepsEachFieldsLastSite() throws InterruptedException {
    Object box = new Object();
    int[] ids = new int[40];
    for (int f = 0; f < ids.length; f++) {
      ids[f] = fields.id("pkg/Box", "f" + f);
      fields.id("pkg/Other", "g" + f);
    }
    java.util.Set<String> expected = new java.util.TreeSet<>();
    for (int f = 0; f < ids.length; f += 2) {
      expected.add("pkg.Box.f" + f);
    }
    inTurnsNamed(new String[] {"owner", "reader"},
        () -> {
          for (int f = 0; f < ids.length; f++) {
            Hooks.writeField(box, ids[f], 1);
          }
          for (int f = ids.length - 1; f >= 0; f--) {
            Hooks.writeField(box, ids[f], 100 + f);
          }
        },
        () -> {
          for (int f = 0; f < ids.length; f += 2) {
            Hooks.readField(box, ids[f], 2);
          }
        });
    assertEquals(List.copyOf(expected), racyFields().stream().sorted().toList());
    for (var field : runtime.aggregator().fields()) {
      int f = Integer.parseInt(field.fieldKey().substring("pkg.Box.f".length()));
      assertEquals(runtime.sites().site(100 + f), field.first().previous().site(), field.fieldKey());
    }
  }

  @Test
  void anOwnersWriteInALaterEpochKeepsTheEarlierFieldsEpochs() throws InterruptedException {
    Object box = new Object();
    int early = fields.id("pkg/Box", "early");
    int late = fields.id("pkg/Box", "late");
    Object lock = new Object();
    inTurns(
        () -> {
          Hooks.writeField(box, early, 1);
          Hooks.monitorEnter(lock);
          Hooks.monitorExit(lock); // a release: the owner's epoch moves on
          Hooks.writeField(box, late, 2); // the compact records gain clocks: early keeps the first epoch
        },
        () -> {
          Hooks.monitorEnter(lock); // covers the first epoch, not the second
          Hooks.readField(box, early, 3);
          Hooks.readField(box, late, 4);
        });
    assertEquals(List.of("pkg.Box.late"), racyFields());
  }

  /**
   * An owner writing across epochs keeps its compact records, each field dated by its own last write: twelve fields
   * (the table grows after the records gained clocks) written in three epochs — the first four, a release, the next
   * four and a rewrite of field 0, a release, the last four. Readers that acquired after the first release cover the
   * fields last written in the first epoch (1, 2, 3) and race on the rest; the records are still compact after the
   * owner's writes (the states are made only by the uncovered read).
   */
  @Test
  void anOwnerWritingAcrossEpochsKeepsCompactRecordsDatedPerField() throws InterruptedException {
    Object box = new Object();
    int[] ids = new int[12];
    for (int f = 0; f < ids.length; f++) {
      ids[f] = fields.id("pkg/Box", "f" + f);
    }
    Object first = new Object();
    Object second = new Object();
    boolean[] compactAfterOwner = new boolean[1];
    inTurnsNamed(new String[] {"owner", "reader"},
        () -> {
          for (int f = 0; f < 4; f++) {
            Hooks.writeField(box, ids[f], 1);
          }
          Hooks.monitorEnter(first);
          Hooks.monitorExit(first);
          for (int f = 4; f < 8; f++) {
            Hooks.writeField(box, ids[f], 2);
          }
          Hooks.writeField(box, ids[0], 3); // field 0 again, in the second epoch
          Hooks.writeField(box, ids[0], 3); // and again: the rewrite fast path, its record already dated
          Hooks.monitorEnter(second);
          Hooks.monitorExit(second);
          for (int f = 8; f < 12; f++) {
            Hooks.writeField(box, ids[f], 4);
          }
          compactAfterOwner[0] = runtime.shadowMemory().peek(box).compact();
        },
        () -> {
          Hooks.monitorEnter(first); // covers the first epoch only
          for (int f = 0; f < ids.length; f++) {
            Hooks.readField(box, ids[f], 5);
          }
        });
    assertEquals(true, compactAfterOwner[0], "the owner's own writes in later epochs keep the compact records");
    java.util.Set<String> expected = new java.util.TreeSet<>();
    expected.add("pkg.Box.f0");
    for (int f = 4; f < 12; f++) {
      expected.add("pkg.Box.f" + f);
    }
    assertEquals(List.copyOf(expected), racyFields().stream().sorted().toList());
    for (var field : runtime.aggregator().fields()) {
      int f = Integer.parseInt(field.fieldKey().substring("pkg.Box.f".length()));
      assertEquals(runtime.sites().site(f == 0 ? 3 : f < 8 ? 2 : 4), field.first().previous().site(), field.fieldKey());
    }
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
    int[] huge = new int[dev.racetriage.agent.options.AgentOptions.DEFAULT_MAX_ARRAY_ELEMENTS + 1];
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

  @Test
  void untrackedArraysAreNamedWithTypeAndLengthUnderTheArraysBound() {
    RunSummary summary = new RunSummary();
    runtime = new DetectRuntime(new SiteTable(), fields, summary, 2, 8);
    Hooks.install(runtime);
    int field = fields.id("pkg/Grid", "cells");
    double[] big = new double[9];
    long[] small = new long[8];
    Hooks.arrayInField(big, field);
    Hooks.writeElement(big, 0, 1);
    Hooks.writeElement(big, 1, 1);
    Hooks.writeElement(small, 0, 2);
    Hooks.writeElement(new double[10], 3, 2);
    assertEquals(2, runtime.untrackedArrays());
    assertEquals(List.of(new RunSummary.UntrackedArray("pkg.Grid.cells[]", "double", 9, 1),
        new RunSummary.UntrackedArray(summary.untrackedArrays().get(1).key(), "double", 10, 1)),
        summary.untrackedArrays());
    assertTrue(summary.untrackedArrays().get(1).key().endsWith("()[]"), summary.untrackedArrays().toString());
  }

  /** {@link #inTurns} on threads with the given names. */
  private static void inTurnsNamed(String[] names, Runnable... steps) throws InterruptedException {
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
      }, names[i]);
      Hooks.threadStarting(threads[i]);
      threads[i].start();
    }
    turns[0].release();
    for (Thread t : threads) {
      t.join();
    }
  }

  private FieldRaces only(String fieldKey) {
    return runtime.aggregator().fields().stream().filter(f -> f.fieldKey().equals(fieldKey)).findFirst()
        .orElseThrow(() -> new AssertionError("no race on " + fieldKey + ": " + racyFields()));
  }

  @Test
  void aRangeWrittenByOneThreadIsCheckedElementByElementFromItsRecords() throws Exception {
    long[] array = new long[6];
    Object lock = new Object();
    Hooks.arrayInField(array, fields.id("pkg/Grid", "row"));
    Semaphore released = new Semaphore(0);
    Semaphore acquired = new Semaphore(0);
    Semaphore written = new Semaphore(0);
    // one writer: [0, 6) before its release, [2, 4) again after the reader acquired
    Thread writer = new Thread(() -> {
      Hooks.writeRange(array, 0, 6, 1);
      Hooks.monitorExit(lock);
      released.release();
      acquired.acquireUninterruptibly();
      Hooks.writeRange(array, 2, 4, 2);
      written.release();
    }, "owner");
    Thread reader = new Thread(() -> {
      released.acquireUninterruptibly();
      Hooks.monitorEnter(lock);
      acquired.release();
      written.acquireUninterruptibly();
      Hooks.readRange(array, 0, 6, 3);
      Hooks.readElement(array, 3, 4);
      Hooks.readElement(array, 5, 5);
    }, "reader");
    for (Thread t : new Thread[] {writer, reader}) {
      Hooks.threadStarting(t);
      t.start();
    }
    writer.join();
    reader.join();
    FieldRaces races = only("pkg.Grid.row[]");
    assertEquals(List.of("pkg.Grid.row[]"), racyFields());
    assertEquals(3, races.count(), "elements 2 and 3 in the range read, element 3 once more; not 0, 1, 4, 5");
    assertEquals(RaceKind.WR, races.first().kind());
    assertEquals("reader", races.first().current().threadName());
    assertEquals("owner", races.first().previous().threadName());
    assertEquals(2, races.first().index());
  }

  @Test
  void aSecondWriterOrderedAfterTheOwnerTakesOverFromItsRecords() throws Exception {
    int[] array = new int[4];
    Object lock = new Object();
    Hooks.arrayInField(array, fields.id("pkg/Grid", "cells"));
    inTurnsNamed(new String[] {"owner", "second", "late"},
        () -> {
          Hooks.writeRange(array, 0, 4, 1);
          Hooks.monitorExit(lock);
        },
        () -> {
          Hooks.monitorEnter(lock);
          Hooks.writeElement(array, 1, 2); // ordered after the owner's write: no race; the array is shared from here
          Hooks.writeRange(array, 2, 4, 3);
        },
        // unordered with both: element 0 was last written by the owner, 1 to 3 by the second writer
        () -> {
          Hooks.readElement(array, 0, 4);
          Hooks.readElement(array, 1, 5);
        });
    FieldRaces races = only("pkg.Grid.cells[]");
    assertEquals(2, races.count());
    assertEquals(Map.of(RaceKind.WR, 2L), races.countByKind());
    assertEquals("owner", races.first().previous().threadName(), "element 0 keeps the owner's write");
    assertEquals(0, races.first().index());
  }

  @Test
  void aSecondWriterUnorderedWithTheOwnerIsAWriteWriteRace() throws Exception {
    int[] array = new int[4];
    Hooks.arrayInField(array, fields.id("pkg/Grid", "cells"));
    inTurnsNamed(new String[] {"owner", "intruder"},
        () -> Hooks.writeRange(array, 0, 4, 1),
        () -> {
          Hooks.writeElement(array, 3, 2);
          Hooks.writeRange(array, 0, 2, 3);
        });
    FieldRaces races = only("pkg.Grid.cells[]");
    assertEquals(Map.of(RaceKind.WW, 3L), races.countByKind());
    assertEquals("intruder", races.first().current().threadName());
    assertEquals("owner", races.first().previous().threadName());
    assertEquals(3, races.first().index());
  }
}
