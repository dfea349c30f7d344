package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.instrument.fixtures.ArrayEscapes;
import dev.racetriage.agent.instrument.fixtures.LeakyTables;
import dev.racetriage.agent.instrument.fixtures.StableTables;
import dev.racetriage.agent.instrument.fixtures.TablesChild;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;

/**
 * Which arrays no access of which can race: tables a class fills in its initialiser before they can be seen and only
 * reads after (a static filled by {@code <clinit>}, GenericGF's exponent tables) lose their element hooks; one handed
 * out, written by a method, taken from the caller, copied into, read by a nestmate or filled after {@code this} left
 * the constructor keeps them — and the last one, read by another thread through the leaked {@code this}, races.
 */
class StableArraysTest {
  private static final StableArrays.ClassFiles FILES = new StableArrays.ClassFiles() {
    @Override
    public byte[] read(String internalName) {
      try (InputStream in = StableArraysTest.class.getClassLoader().getResourceAsStream(internalName + ".class")) {
        return in == null ? null : in.readAllBytes();
      } catch (IOException e) {
        return null;
      }
    }
  };

  private static byte[] original(Class<?> c) {
    return FILES.read(c.getName().replace('.', '/'));
  }

  @Test
  void tablesFilledByTheirInitialiserAndOnlyReadAfterAreStable() {
    StableArrays stable = StableArrays.of(new ClassReader(original(StableTables.class)), FILES);
    assertEquals(Set.of("SQUARES", "FILLED", "CHARS", "BUILT", "exp", "log", "source"), stable.fields());
  }

  @Test
  void anEnumsValuesArrayIsStableAndValuesCopiesItWithoutAHook() throws Exception {
    StableArrays stable = StableArrays.of(new ClassReader(original(StableShade.class)), FILES);
    assertEquals(Set.of("$VALUES"), stable.fields());
    byte[] out = new ClassInstrumenter(new dev.racetriage.agent.detect.SiteTable(),
        new dev.racetriage.agent.runtime.FieldRegistry()).instrument(ClassKind.APPLICATION,
        getClass().getClassLoader(), original(StableShade.class)).bytes();
    assertFalse(ClassInstrumenterTest.callsByMethod(out, BulkHookMethod.OWNER).containsKey("values"));
    byte[] tables = new ClassInstrumenter(new dev.racetriage.agent.detect.SiteTable(),
        new dev.racetriage.agent.runtime.FieldRegistry()).instrument(ClassKind.APPLICATION,
        getClass().getClassLoader(), original(StableTables.class)).bytes();
    assertFalse(ClassInstrumenterTest.callsByMethod(tables, BulkHookMethod.OWNER).containsKey("builtCopy"));
    assertFalse(ClassInstrumenterTest.callsByMethod(tables, HookMethod.OWNER).containsKey("hex"));
    assertTrue(ClassInstrumenterTest.callsByMethod(tables, HookMethod.OWNER).get("built").contains("readElement"),
        "KEPT: its helper keeps it");
  }

  /** An enum (javac fills {@code $VALUES} from {@code $values()}; {@code values()} clones it). */
  enum StableShade { LIGHT, DARK }

  @Test
  void aSubclassOfAnotherClassHelpersAndDelegatingConstructorsKeepTheirTablesChecked() {
    StableArrays stable = StableArrays.of(new ClassReader(original(TablesChild.class)), FILES);
    assertEquals(Set.of("SMALL"), stable.fields());
  }

  @Test
  void aNestWhoseMembersCannotBeReadKeepsEveryCheck() {
    StableArrays.ClassFiles none = new StableArrays.ClassFiles() {
      @Override
      public byte[] read(String internalName) {
        return null;
      }
    };
    assertSame(StableArrays.NONE, StableArrays.of(new ClassReader(original(StableTables.class)), none));
  }

  @Test
  void aNestMemberWhoseClassFileIsMalformedKeepsEveryCheckAndCostsNothingElse() {
    StableArrays.ClassFiles garbage = new StableArrays.ClassFiles() {
      @Override
      public byte[] read(String internalName) {
        return new byte[] {(byte) 0xCA, (byte) 0xFE, 0, 1};
      }
    };
    assertSame(StableArrays.NONE, StableArrays.of(new ClassReader(original(StableTables.class)), garbage));
  }

  @Test
  void aClassWithoutPrivateFinalArraysIsNotAnalysed() {
    assertSame(StableArrays.NONE, StableArrays.of(new ClassReader(original(ArrayEscapes.class)), FILES));
  }

  @Test
  void theStableTablesReadsCallNoElementHookAndTheOthersKeepTheirs() throws Exception {
    byte[] out = new ClassInstrumenter(new dev.racetriage.agent.detect.SiteTable(),
        new dev.racetriage.agent.runtime.FieldRegistry()).instrument(ClassKind.APPLICATION,
        getClass().getClassLoader(), original(StableTables.class)).bytes();
    Map<String, List<String>> hooks = ClassInstrumenterTest.callsByMethod(out, HookMethod.OWNER);
    for (String reader : List.of("square", "filled", "multiply")) {
      assertFalse(hooks.containsKey(reader), reader + ": " + hooks.get(reader));
    }
    // <clinit> and the constructor fill the stable tables without hooks; the other tables keep theirs
    assertEquals(3, hooks.get("<clinit>").stream().filter(h -> h.endsWith("Element")).count(),
        hooks.get("<clinit>").toString()); // OPEN = {1, 2, 3}: not private
    assertTrue(hooks.get("<init>").stream().anyMatch(h -> h.endsWith("Element")), hooks.get("<init>").toString());
    for (String keeps : List.of("count", "write", "readWritten", "given", "open", "readAlias")) {
      assertTrue(hooks.getOrDefault(keeps, List.of()).stream().anyMatch(h -> h.endsWith("Element")),
          keeps + ": " + hooks.get(keeps));
    }
    // the array it hands out is not stable, and named by the constructor's store: a read of the class's own final
    // field names it no more
    assertTrue(hooks.get("<init>").contains("arrayInField"), hooks.get("<init>").toString());
    assertFalse(hooks.containsKey("exposed"), String.valueOf(hooks.get("exposed")));
  }

  private static Object invoke(Object target, String method, Object... args) throws Throwable {
    for (Method m : target.getClass().getDeclaredMethods()) {
      if (m.getName().equals(method) && m.getParameterCount() == args.length) {
        m.setAccessible(true);
        try {
          return m.invoke(target, args);
        } catch (InvocationTargetException e) {
          throw e.getCause();
        }
      }
    }
    throw new NoSuchMethodException(method);
  }

  private static Object make(Class<?> c) throws Exception {
    Constructor<?> k = c.getConstructor(int[].class);
    return k.newInstance((Object) new int[] {1, 2, 3});
  }

  @Test
  void stableTablesReadOnTwoThreadsReportNothingAndComputeTheSame() throws Throwable {
    StableTables plain = new StableTables(new int[] {1, 2, 3});
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(StableTables.class);
      Object tables = make(c);
      int[] sums = new int[2];
      Thread[] threads = new Thread[2];
      for (int t = 0; t < 2; t++) {
        int slot = t;
        threads[t] = run.start(() -> {
          int sum = 0;
          for (int a = 0; a < 256; a++) {
            sum += (Integer) invoke(tables, "multiply", a, 255 - a);
            sum += (Integer) InstrumentedRun.call(c, "square", a);
            sum += (int) (long) (Long) InstrumentedRun.call(c, "filled", a);
            sum += (Integer) invoke(tables, "copyOut");
          }
          sums[slot] = sum;
        });
      }
      for (Thread t : threads) {
        run.join(t);
      }
      int expected = 0;
      for (int a = 0; a < 256; a++) {
        expected += plain.multiply(a, 255 - a) + StableTables.square(a) + (int) StableTables.filled(a)
            + plain.copyOut();
      }
      assertEquals(expected, sums[0]);
      assertEquals(expected, sums[1]);
      assertEquals(Set.of(), run.racyFields());
      assertEquals(0, run.internalErrors());
    }
  }

  @Test
  void aConstructorThatLetsThisOutKeepsEveryTableChecked() {
    assertSame(StableArrays.NONE, StableArrays.of(new ClassReader(original(LeakyTables.class)), FILES));
  }

  @Test
  void aTableFilledAfterThisLeftTheConstructorRacesWithAReaderThroughTheLeak() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(LeakyTables.class);
      Object[] made = new Object[1];
      InstrumentedRun.awaitEndWithoutEdge(run.start(() -> made[0] = c.getConstructor().newInstance()));
      // the reader finds the object through the registry (ordered after the constructor's add, not after its
      // later store into the table) and reads the table
      InstrumentedRun.awaitEndWithoutEdge(run.start(() -> {
        java.lang.reflect.Field field = c.getDeclaredField("REGISTRY");
        field.setAccessible(true);
        Object registry = field.get(null);
        Object found;
        synchronized (registry) {
          found = ((List<?>) registry).get(0);
        }
        assertEquals(1 + 2, invoke(found, "early"));
      }));
      Set<String> racy = run.racyFields();
      assertTrue(racy.contains(LeakyTables.class.getName() + ".late[]"), racy.toString());
      assertEquals(0, run.internalErrors());
    }
  }

  @Test
  void aWrittenTableStillRacesAndAStableOneBesideItDoesNot() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(StableTables.class);
      Object tables = make(c);
      for (int t = 0; t < 2; t++) {
        int v = t;
        InstrumentedRun.awaitEndWithoutEdge(run.start(() -> {
          invoke(tables, "write", 3, v);
          invoke(tables, "multiply", 3, 7);
        }));
      }
      assertEquals(Set.of(StableTables.class.getName() + ".written[]"), run.racyFields());
      assertEquals(0, run.internalErrors());
    }
  }
}
