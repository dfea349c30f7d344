package dev.racetriage.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.detect.FieldRaces;
import dev.racetriage.agent.detect.RaceKind;
import dev.racetriage.agent.detect.RunSummary;
import dev.racetriage.agent.detect.SiteTable;
import java.lang.invoke.CallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The owned-element guard's call site as instrumented code links it ({@code Hooks.ownedElementSite}): it settles a read
 * of an array the reader owns once the load's hook cached it, not one another thread wrote since, and once the load
 * read an array another thread wrote the site no longer guards at all — even an array the reader owns then goes
 * through the hook, which still finds the race on the shared one.
 */
class OwnedElementGuardTest {
  private static final int GUARD = 7;

  @AfterEach
  void uninstall() {
    Hooks.install(null);
  }

  @Test
  void aSiteSettlesOwnedReadsAndStopsGuardingOnceItsLoadReadsASharedArray() throws Throwable {
    FieldRegistry fields = new FieldRegistry();
    DetectRuntime runtime = new DetectRuntime(new SiteTable(), fields, new RunSummary(), 0);
    Hooks.install(runtime);
    CallSite site = Hooks.ownedElementSite(MethodHandles.lookup(), "owned",
        MethodType.methodType(boolean.class, Object.class, int.class), GUARD);
    MethodHandle guard = site.dynamicInvoker();

    long[] shared = new long[4];
    Hooks.arrayInField(shared, fields.id("pkg/Holder", "shared"));
    Hooks.writeElement(shared, 0, 1);
    assertFalse((boolean) guard.invokeExact((Object) shared, GUARD), "nothing cached for the load yet");
    Hooks.readElement(shared, 0, 2, GUARD, null);
    assertTrue((boolean) guard.invokeExact((Object) shared, GUARD), "the hook cached the array its reader owns");

    Thread writer = new Thread(() -> Hooks.writeElement(shared, 0, 3), "writer"); // unordered with the next read
    Hooks.threadStarting(writer);
    writer.start();
    writer.join(); // not reported to the runtime: the main thread is not ordered after the write
    assertFalse((boolean) guard.invokeExact((Object) shared, GUARD), "another thread wrote the array");
    Hooks.readElement(shared, 0, 2, GUARD, null); // the race, and the load marked contended

    long[] owned = new long[4];
    Hooks.writeElement(owned, 1, 1);
    Hooks.readElement(owned, 1, 2, GUARD, null);
    assertFalse((boolean) guard.invokeExact((Object) owned, GUARD), "a contended load's site no longer guards");

    List<FieldRaces> races = runtime.aggregator().fields();
    assertEquals(1, races.size(), races.toString());
    assertEquals("pkg.Holder.shared[]", races.get(0).fieldKey());
    assertEquals(Map.of(RaceKind.WR, 1L), races.get(0).countByKind());
  }

  /**
   * The write guard ({@code Hooks.ownedElementWriteSite}): it records an owner's write itself once the array is the
   * thread's last written one (no hook), not after the thread released a lock (its epoch moved: the hook records
   * the new epoch), nor a write of an array another thread wrote; a store that wrote a shared array re-targets its
   * class's sites, the read guards' too, and the races are still reported — including one against a write only the
   * guard recorded.
   */
  @Test
  void aWriteSiteRecordsOwnersWritesAndStopsGuardingOnceItsStoreWritesASharedArray() throws Throwable {
    FieldRegistry fields = new FieldRegistry();
    DetectRuntime runtime = new DetectRuntime(new SiteTable(), fields, new RunSummary(), 0);
    Hooks.install(runtime);
    MethodType type = MethodType.methodType(ThreadShadow.class, Object.class, int.class, int.class,
        ThreadShadow.class);
    MethodHandles.Lookup caller = MethodHandles.lookup().in(WriteSites.class); // a class of their own: contended
    MethodHandle write = Hooks.ownedElementWriteSite(caller, "ownedWrite", type, GUARD + 1).dynamicInvoker();
    MethodHandle read = Hooks.ownedElementSite(caller, "owned",
        MethodType.methodType(boolean.class, Object.class, int.class), GUARD).dynamicInvoker();

    long[] owned = new long[4];
    Hooks.arrayInField(owned, fields.id("pkg/Holder", "owned"));
    assertEquals(null, (ThreadShadow) write.invokeExact((Object) owned, 0, 1, (ThreadShadow) null), "no records yet");
    Hooks.writeElement(owned, 0, 1, GUARD + 1, null);
    ThreadShadow t = (ThreadShadow) write.invokeExact((Object) owned, 1, 1, (ThreadShadow) null);
    assertTrue(t != null, "the owner's write is recorded by the guard");
    Object lock = new Object();
    Hooks.monitorEnter(lock);
    Hooks.monitorExit(lock); // a release: the main thread's epoch moves on
    assertEquals(null, (ThreadShadow) write.invokeExact((Object) owned, 1, 1, t), "a new epoch goes to the hook");
    Hooks.writeElement(owned, 1, 1, GUARD + 1, t);
    assertTrue((ThreadShadow) write.invokeExact((Object) owned, 1, 1, t) != null, "then the guard again");

    java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1); // unseen by the runtime
    Thread reader = new Thread(() -> {
      try {
        go.await();
      } catch (InterruptedException e) {
        return;
      }
      Hooks.readElement(owned, 2, 4); // never written: no race
      Hooks.readElement(owned, 3, 4); // written by the guard alone, after the fork: a race
    }, "reader");
    Hooks.threadStarting(reader);
    reader.start(); // the fork moves the main thread's epoch on too
    Hooks.writeElement(owned, 0, 1, GUARD + 1, t);
    assertTrue((ThreadShadow) write.invokeExact((Object) owned, 3, 1, t) != null, "element 3 recorded by the guard");
    go.countDown();
    reader.join(); // not reported to the runtime
    Hooks.readElement(owned, 0, 2, GUARD, null);
    assertTrue((boolean) read.invokeExact((Object) owned, GUARD), "the read guard settles the owner's reads");

    long[] shared = new long[4];
    Hooks.arrayInField(shared, fields.id("pkg/Holder", "shared"));
    Thread writer = new Thread(() -> Hooks.writeElement(shared, 0, 3), "writer");
    Hooks.threadStarting(writer);
    writer.start();
    writer.join();
    assertEquals(null, (ThreadShadow) write.invokeExact((Object) shared, 0, 1, t), "another thread's array");
    Hooks.writeElement(shared, 0, 1, GUARD + 1, t); // the race, and the class contended
    assertEquals(null, (ThreadShadow) write.invokeExact((Object) owned, 1, 1, t), "the write sites no longer guard");
    assertFalse((boolean) read.invokeExact((Object) owned, GUARD), "nor do the class's read sites");

    Map<String, Map<RaceKind, Long>> byField = new java.util.TreeMap<>();
    for (FieldRaces f : runtime.aggregator().fields()) {
      byField.put(f.fieldKey(), f.countByKind());
    }
    assertEquals(Map.of("pkg.Holder.owned[]", Map.of(RaceKind.WR, 1L), "pkg.Holder.shared[]",
        Map.of(RaceKind.WW, 1L)), byField);
  }

  /**
   * The repeated-write guard ({@code Hooks.repeatedElementWrite}) at a store in a loop: it skips the hook only for the
   * thread's last recorded element write again — the same array, element and site, in the same epoch — not another
   * element or site, not after a release (a new epoch), a range write, or the runtime's removal; and a race with an
   * unordered write of another thread that came between two such writes is still reported (against the first).
   */
  @Test
  void theRepeatedWriteGuardSkipsOnlyTheSameWriteAgainInTheSameEpoch() throws Throwable {
    FieldRegistry fields = new FieldRegistry();
    DetectRuntime runtime = new DetectRuntime(new SiteTable(), fields, new RunSummary(), 0);
    Hooks.install(runtime);
    long[] counters = new long[4];
    Hooks.arrayInField(counters, fields.id("pkg/Holder", "counters"));
    assertFalse(Hooks.repeatedElementWrite(counters, 0, 1, null), "no thread slot yet: the hook");
    ThreadShadow t = Hooks.writeElement(counters, 0, 1, null); // the array's first write: the hook's full path
    assertTrue(Hooks.repeatedElementWrite(counters, 0, 1, t), "the same write again");
    assertFalse(Hooks.repeatedElementWrite(counters, 1, 1, t), "another element");
    assertFalse(Hooks.repeatedElementWrite(counters, 0, 2, t), "another site: its record must name it");
    assertFalse(Hooks.repeatedElementWrite(new long[4], 0, 1, t), "another array");
    t = Hooks.writeElement(counters, 1, 1, t); // an owner's write: the hook's short path notes it too
    assertTrue(Hooks.repeatedElementWrite(counters, 1, 1, t));
    assertFalse(Hooks.repeatedElementWrite(counters, 0, 1, t), "only the last write is remembered");

    Object lock = new Object();
    Hooks.monitorEnter(lock);
    Hooks.monitorExit(lock); // a release: the epoch moves on, the element's record must get it
    assertFalse(Hooks.repeatedElementWrite(counters, 1, 1, t), "a new epoch goes to the hook");
    t = Hooks.writeElement(counters, 1, 1, t);
    assertTrue(Hooks.repeatedElementWrite(counters, 1, 1, t));
    Hooks.writeRange(counters, 0, 4, 5); // a hoisted loop's range: the records now name its site
    assertFalse(Hooks.repeatedElementWrite(counters, 1, 1, t), "after a range write");

    t = Hooks.writeElement(counters, 2, 1, t);
    Thread other = new Thread(() -> Hooks.writeElement(counters, 2, 3), "other");
    other.start(); // not announced to the runtime: unordered with the main thread's writes, before and after
    other.join();
    assertTrue(Hooks.repeatedElementWrite(counters, 2, 1, t), "skipped: the other write raced with the first");

    Hooks.install(null);
    assertFalse(Hooks.repeatedElementWrite(counters, 2, 1, t), "no runtime: the hook");

    List<FieldRaces> races = runtime.aggregator().fields();
    assertEquals(1, races.size(), races.toString());
    assertEquals("pkg.Holder.counters[]", races.get(0).fieldKey());
    assertEquals(Map.of(RaceKind.WW, 1L), races.get(0).countByKind(), "the other thread's write against the first");
    assertEquals(java.util.Set.of(2), java.util.Set.copyOf(races.get(0).indices()));
  }

  /** The class whose sites the write guard's test links (a class's contended mark lasts as long as the JVM). */
  private static final class WriteSites {
  }

  @Test
  void aSiteThatCannotBeBoundNeverSettlesARead() throws Throwable {
    FieldRegistry fields = new FieldRegistry();
    Hooks.install(new DetectRuntime(new SiteTable(), fields, new RunSummary(), 0));
    CallSite site = Hooks.ownedElementSite(MethodHandles.lookup(), "owned",
        MethodType.methodType(boolean.class, Object.class, int.class), -1);
    long[] owned = new long[4];
    Hooks.writeElement(owned, 0, 1);
    Hooks.readElement(owned, 0, 2, -1, null);
    assertFalse((boolean) site.dynamicInvoker().invokeExact((Object) owned, -1));
  }
}
