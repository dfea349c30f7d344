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
