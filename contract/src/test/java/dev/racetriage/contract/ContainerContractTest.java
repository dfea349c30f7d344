package dev.racetriage.contract;

import static dev.racetriage.contract.ContainerContract.NONE;
import static dev.racetriage.contract.ContainerContract.READ;
import static dev.racetriage.contract.ContainerContract.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

/** The shared table: what the agent and the prefilter both treat as a container call. */
class ContainerContractTest {
  @Test
  void mutatorsWriteAccessorsReadAndNothingIsBoth() {
    assertEquals(WRITE, ContainerContract.access("java/util/Map", "put"));
    assertEquals(WRITE, ContainerContract.access("java/util/TreeMap", "put"));
    assertEquals(WRITE, ContainerContract.access("java/util/List", "add"));
    assertEquals(WRITE, ContainerContract.access("java/lang/StringBuilder", "append"));
    assertEquals(WRITE, ContainerContract.access("java/text/DateFormat", "format"));
    assertEquals(READ, ContainerContract.access("java/util/Map", "get"));
    assertEquals(READ, ContainerContract.access("java/lang/Iterable", "iterator"));
    assertEquals(READ, ContainerContract.access("java/lang/StringBuilder", "toString"));
    assertTrue(ContainerContract.WRITES.stream().noneMatch(ContainerContract.READS::contains));
  }

  @Test
  void concurrentWrappedAndThreadSafeClassesAreNotModelled() {
    assertEquals(NONE, ContainerContract.access("java/util/concurrent/ConcurrentHashMap", "put"));
    assertEquals(NONE, ContainerContract.access("java/util/Random", "nextInt"));
    assertEquals(NONE, ContainerContract.access("java/util/Iterator", "next"));
    assertEquals(NONE, ContainerContract.access("java/lang/StringBuffer", "append"));
    assertFalse(ContainerContract.isModelledClass("java.util.concurrent.ConcurrentHashMap"));
    assertFalse(ContainerContract.isModelledClass("java.util.Vector"));
    assertFalse(ContainerContract.isModelledClass("java.util.Collections$SynchronizedMap"));
    assertFalse(ContainerContract.isModelledClass("java.util.Random"));
    assertTrue(ContainerContract.isModelledClass("java.util.TreeMap"));
    assertTrue(ContainerContract.isModelledClass("java.text.SimpleDateFormat"));
  }

  @Test
  void everyModelledClassIsNamedByAnOwnerAndHasTheModelledMethods() throws Exception {
    for (String name : ContainerContract.CLASSES) {
      Class<?> c = Class.forName(name);
      assertFalse(c.getName().startsWith("java.util.concurrent"), name);
      boolean named = false;
      for (Class<?> k = c; k != null && !named; k = k.getSuperclass()) {
        named = ContainerContract.mayHold(k.getName().replace('.', '/'));
      }
      assertTrue(named, name + " is reached through no static type of the table");
    }
    for (String name : ContainerContract.WRITES) {
      assertTrue(existsOnAModelledClass(name), "no modelled class has a method " + name);
    }
    for (String name : ContainerContract.READS) {
      assertTrue(existsOnAModelledClass(name), "no modelled class has a method " + name);
    }
  }

  private static boolean existsOnAModelledClass(String method) throws ClassNotFoundException {
    for (String name : ContainerContract.CLASSES) {
      for (Method m : Class.forName(name).getMethods()) {
        if (m.getName().equals(method)) {
          return true;
        }
      }
    }
    return false;
  }

  @Test
  void copiedArgumentsAreReadAndCollectionsAlgorithmsWriteTheirList() {
    assertEquals(READ, ContainerContract.argumentAccess('c', "java/util/ArrayList", "<init>", 0, "java/util/Collection"));
    assertEquals(READ, ContainerContract.argumentAccess('i', "java/util/List", "addAll", 0, "java/util/Collection"));
    assertEquals(READ, ContainerContract.argumentAccess('s', "java/lang/String", "join", 1, "java/lang/Iterable"));
    assertEquals(WRITE, ContainerContract.argumentAccess('s', "java/util/Collections", "sort", 0, "java/util/List"));
    assertEquals(NONE, ContainerContract.argumentAccess('s', "java/util/Objects", "hash", 0, "java/util/List"));
    assertEquals(NONE, ContainerContract.argumentAccess('c', "java/util/concurrent/ConcurrentHashMap", "<init>", 0,
        "java/util/Map"));
    assertEquals(NONE, ContainerContract.argumentAccess('i', "java/util/List", "add", 0, "java/lang/Object"));
  }
}
