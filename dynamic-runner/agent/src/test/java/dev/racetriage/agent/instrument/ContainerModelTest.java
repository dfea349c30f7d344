package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.instrument.fixtures.SharedContainers;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The container model table, and container calls on instrumented code, threads ordered only by what is under test:
 * a mutator then another thread's accessor of the same container is a race on {@code holder{}}, thread-safe and
 * unnamed containers are not checked, ordered calls report nothing.
 */
class ContainerModelTest {
  private static final String KEY = InstrumentedRun.FIXTURES + "SharedContainers.";

  @BeforeEach
  void enable() {
    ContainerModel.enable(true);
  }

  @AfterEach
  void disable() {
    ContainerModel.enable(false);
  }

  @Test
  void theTableSaysWhichCallsWriteAndWhichRead() {
    assertEquals(ContainerModel.WRITE, ContainerModel.access("java/util/Map", "put"));
    assertEquals(ContainerModel.WRITE, ContainerModel.access("java/util/HashMap", "computeIfAbsent"));
    assertEquals(ContainerModel.WRITE, ContainerModel.access("java/util/List", "add"));
    assertEquals(ContainerModel.WRITE, ContainerModel.access("java/util/Deque", "poll"));
    assertEquals(ContainerModel.WRITE, ContainerModel.access("java/lang/StringBuilder", "append"));
    assertEquals(ContainerModel.WRITE, ContainerModel.access("java/text/DateFormat", "format"));
    assertEquals(ContainerModel.WRITE, ContainerModel.access("java/text/SimpleDateFormat", "parse"));
    assertEquals(ContainerModel.READ, ContainerModel.access("java/util/Map", "get"));
    assertEquals(ContainerModel.READ, ContainerModel.access("java/util/Collection", "size"));
    assertEquals(ContainerModel.READ, ContainerModel.access("java/lang/Iterable", "forEach"));
    assertEquals(ContainerModel.READ, ContainerModel.access("java/util/TreeMap", "firstKey"));
    assertEquals(ContainerModel.READ, ContainerModel.access("java/lang/StringBuilder", "toString"));
    assertEquals(ContainerModel.NONE, ContainerModel.access("java/lang/Object", "hashCode"));
    assertEquals(ContainerModel.NONE, ContainerModel.access("java/util/concurrent/ConcurrentMap", "put"));
    assertEquals(ContainerModel.NONE, ContainerModel.access("java/util/Random", "nextInt"));
    assertEquals(ContainerModel.NONE, ContainerModel.access("java/util/Iterator", "next"));
    assertEquals(ContainerModel.NONE, ContainerModel.access("java/util/Map", "wait"));
    assertTrue(Set.copyOf(ContainerModel.WRITES).stream().noneMatch(ContainerModel.READS::contains),
        "a method is a write or a read, not both");
  }

  @Test
  void containerArgumentsThatACallCopiesAreReadAndThoseCollectionsSortsAreWritten() {
    assertArrayEquals(new int[] {ContainerModel.READ}, ContainerModel.accesses(false, true, "java/util/ArrayList",
        "<init>", "(Ljava/util/Collection;)V"));
    assertArrayEquals(new int[] {ContainerModel.WRITE, ContainerModel.READ}, ContainerModel.accesses(true, false,
        "java/util/Map", "putAll", "(Ljava/util/Map;)V"));
    assertArrayEquals(new int[] {ContainerModel.WRITE, ContainerModel.NONE, ContainerModel.NONE},
        ContainerModel.accesses(true, false, "java/util/List", "add", "(ILjava/lang/Object;)V"));
    assertArrayEquals(new int[] {ContainerModel.WRITE, ContainerModel.NONE}, ContainerModel.accesses(false, false,
        "java/util/Collections", "sort", "(Ljava/util/List;Ljava/util/Comparator;)V"));
    // the delimiter is a CharSequence, read too (checked only when it is a StringBuilder)
    assertArrayEquals(new int[] {ContainerModel.READ, ContainerModel.READ}, ContainerModel.accesses(false, false,
        "java/lang/String", "join", "(Ljava/lang/CharSequence;Ljava/lang/Iterable;)Ljava/lang/String;"));
    assertNull(ContainerModel.accesses(false, true, "java/util/ArrayList", "<init>", "(I)V"));
    assertNull(ContainerModel.accesses(false, true, "java/util/concurrent/CopyOnWriteArrayList", "<init>",
        "(Ljava/util/Collection;)V"));
    assertNull(ContainerModel.accesses(true, false, "java/lang/Object", "equals", "(Ljava/lang/Object;)Z"));
  }

  @Test
  void copiesOfASharedContainerReadItAndASortWritesIt() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(SharedContainers.class);
      Object shared = InstrumentedRun.call(c, "create");
      unordered(run, () -> {
            InstrumentedRun.call(c, "add", shared, "x");
            InstrumentedRun.call(c, "put", shared, "a");
          },
          () -> {
            InstrumentedRun.call(c, "copyLog", shared);
            InstrumentedRun.call(c, "copyCounts", shared);
          });
      assertEquals(Set.of(KEY + "counts{}", KEY + "log{}"), run.racyFields());
      assertEquals("copyLog", run.races(KEY + "log{}").first().current().site().methodName());
    }
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(SharedContainers.class);
      Object shared = InstrumentedRun.call(c, "create");
      unordered(run, () -> InstrumentedRun.call(c, "sortLog", shared), () -> InstrumentedRun.call(c, "sortLog", shared));
      assertEquals(Set.of(KEY + "log{}"), run.racyFields());
    }
  }

  @Test
  void onlyTheJdksUnsynchronisedClassesThemselvesAreModelled() {
    assertTrue(ContainerModel.isModelled(HashMap.class));
    assertTrue(ContainerModel.isModelled(TreeMap.class));
    assertTrue(ContainerModel.isModelled(ArrayList.class));
    assertTrue(ContainerModel.isModelled(StringBuilder.class));
    assertTrue(ContainerModel.isModelled(java.text.SimpleDateFormat.class));
    assertFalse(ContainerModel.isModelled(ConcurrentHashMap.class));
    assertFalse(ContainerModel.isModelled(Collections.synchronizedMap(new HashMap<>()).getClass()));
    assertFalse(ContainerModel.isModelled(java.util.Vector.class));
    assertFalse(ContainerModel.isModelled(java.util.Random.class));
    assertFalse(ContainerModel.isModelled(new HashMap<String, String>() { }.getClass()), "a subclass may lock");
    assertTrue(ContainerModel.mayHold("Ljava/util/Map;"));
    assertTrue(ContainerModel.mayHold("Ljava/text/SimpleDateFormat;"));
    assertFalse(ContainerModel.mayHold("Ljava/lang/String;"));
    assertFalse(ContainerModel.mayHold("I"));
  }

  @Test
  void aMutatorThenAnUnorderedAccessorRacesOnTheHoldingField() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(SharedContainers.class);
      Object shared = InstrumentedRun.call(c, "create");
      unordered(run, () -> {
            InstrumentedRun.call(c, "put", shared, "a");
            InstrumentedRun.call(c, "add", shared, "x");
            InstrumentedRun.call(c, "append", shared, "y");
          },
          () -> {
            InstrumentedRun.call(c, "get", shared, "a");
            InstrumentedRun.call(c, "size", shared);
            InstrumentedRun.call(c, "append", shared, "z");
          });
      assertEquals(Set.of(KEY + "counts{}", KEY + "log{}", KEY + "text{}"), run.racyFields());
      assertEquals("put", run.races(KEY + "counts{}").first().previous().site().methodName());
      assertEquals("get", run.races(KEY + "counts{}").first().current().site().methodName());
      assertEquals(0, run.internalErrors());
    }
  }

  @Test
  void aContainerNoFieldHoldsIsNamedAfterTheMethodOfItsFirstCall() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(SharedContainers.class);
      Object set = InstrumentedRun.call(c, "newSet");
      unordered(run, () -> InstrumentedRun.call(c, "addTo", set, "a"), () -> InstrumentedRun.call(c, "isIn", set, "a"));
      assertEquals(Set.of(KEY + "addTo(){}"), run.racyFields());
    }
  }

  @Test
  void aContainerAFieldHoldsAfterItsFirstCallsIsNamedAfterTheFieldFromThenOn() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(SharedContainers.class);
      Object set = InstrumentedRun.call(c, "newSet");
      InstrumentedRun.call(c, "addTo", set, "a"); // unnamed: addTo(){}
      InstrumentedRun.call(c, "keep", set); // held by SharedContainers.kept
      unordered(run, () -> InstrumentedRun.call(c, "addTo", set, "b"), () -> InstrumentedRun.call(c, "isIn", set, "b"));
      assertEquals(Set.of(KEY + "kept{}"), run.racyFields());
      assertEquals(0, run.internalErrors());
    }
  }

  @Test
  void aSharedDateFormatFormattingOnTwoThreadsRaces() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(SharedContainers.class);
      unordered(run, () -> InstrumentedRun.call(c, "format", 0L), () -> InstrumentedRun.call(c, "format", 1L));
      assertEquals(Set.of(KEY + "FORMAT{}"), run.racyFields());
    }
  }

  @Test
  void concurrentLocalAndOrderedContainersReportNothing() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(SharedContainers.class);
      Object shared = InstrumentedRun.call(c, "create");
      unordered(run, () -> {
            InstrumentedRun.call(c, "putConcurrent", shared, "a");
            InstrumentedRun.call(c, "local", 5);
          },
          () -> {
            InstrumentedRun.call(c, "getConcurrent", shared, "a");
            InstrumentedRun.call(c, "local", 5);
          });
      run.join(run.start(() -> InstrumentedRun.call(c, "put", shared, "b")));
      run.join(run.start(() -> InstrumentedRun.call(c, "get", shared, "b")));
      assertEquals(Set.of(), run.racyFields());
      assertEquals(0, run.internalErrors());
    }
  }

  @Test
  void withoutTheSwitchContainerCallsAreNotInstrumented() throws Throwable {
    ContainerModel.enable(false);
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(SharedContainers.class);
      Object shared = InstrumentedRun.call(c, "create");
      unordered(run, () -> InstrumentedRun.call(c, "put", shared, "a"),
          () -> InstrumentedRun.call(c, "get", shared, "a"));
      assertEquals(Set.of(), run.racyFields());
    }
  }

  private static void unordered(InstrumentedRun run, InstrumentedRun.ThrowingRunnable first,
                                InstrumentedRun.ThrowingRunnable second) {
    InstrumentedRun.awaitEndWithoutEdge(run.start(first));
    InstrumentedRun.awaitEndWithoutEdge(run.start(second));
  }
}
