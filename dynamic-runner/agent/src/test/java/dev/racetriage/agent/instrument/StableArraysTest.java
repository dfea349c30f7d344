package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.instrument.fixtures.ArrayEscapes;
import dev.racetriage.agent.instrument.fixtures.LeakyTables;
import dev.racetriage.agent.instrument.fixtures.StableRows;
import dev.racetriage.agent.instrument.fixtures.StableTables;
import dev.racetriage.agent.instrument.fixtures.TablesChild;
import dev.racetriage.agent.instrument.fixtures.UnstableRows;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Which arrays no access of which can race: tables a class fills in its initialiser before they can be seen and only
 * reads after (a static filled by {@code <clinit>}, GenericGF's exponent tables) lose their element hooks; one handed
 * out, written by a method, taken from the caller, copied into, read by a nestmate or filled after {@code this} left
 * the constructor keeps them — and the last one, read by another thread through the leaked {@code this}, races. The
 * rows of a stable table of arrays are stable too when the initialiser allocated and wrote them and nothing lets one
 * out or writes one later; a row that goes anywhere keeps its hooks, and only its own: the table's loads lose theirs.
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

  @Test
  void rowsTheInitialiserAllocatesFillsAndNothingLetsOutAreStableAndLoseEveryHook() {
    StableArrays stable = StableArrays.of(new ClassReader(original(StableRows.class)), FILES);
    Set<String> tables = Set.of("RATIOS", "BUILT", "LITERAL", "LOCAL", "CUBE", "grid");
    assertEquals(tables, stable.fields());
    assertEquals(tables, stable.rows());
    ClassNode node = new ClassNode();
    new ClassReader(original(StableRows.class)).accept(node, 0);
    for (MethodNode m : node.methods) {
      // every element access here is a table's, a row's or a fresh row's of <clinit> or the constructor
      StableArrays.Skips skips = stable.skips(m.name, m.desc);
      BitSet all = new BitSet();
      all.set(0, arrayAccesses(m));
      assertEquals(all, skips.elements(), m.name);
      BitSet bulk = new BitSet();
      bulk.set(0, bulkCalls(m));
      assertEquals(bulk, skips.bulkCalls(), m.name); // <clinit>'s arraycopy between rows, bulkRows' reads
      if (m.name.equals("sumRatios")) {
        assertEquals(2, all.cardinality(), "the row load and the element load");
      }
    }
  }

  @Test
  void stableRowsReadOnTwoThreadsCallNoElementHookReportNothingAndComputeTheSame() throws Throwable {
    byte[] out = new ClassInstrumenter(new dev.racetriage.agent.detect.SiteTable(),
        new dev.racetriage.agent.runtime.FieldRegistry()).instrument(ClassKind.APPLICATION,
        getClass().getClassLoader(), original(StableRows.class)).bytes();
    Map<String, List<String>> hooks = ClassInstrumenterTest.callsByMethod(out, HookMethod.OWNER);
    for (Map.Entry<String, List<String>> e : hooks.entrySet()) {
      assertFalse(e.getValue().stream().anyMatch(h -> h.contains("Element") || h.contains("Range")),
          e.getKey() + ": " + e.getValue());
    }
    long expected = readAll(new StableRows());
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(StableRows.class);
      Object rows = c.getConstructor().newInstance();
      long[] sums = new long[2];
      Thread[] threads = new Thread[2];
      for (int t = 0; t < 2; t++) {
        int slot = t;
        threads[t] = run.start(() -> {
          long sum = 0;
          for (int i = 0; i < 16; i++) {
            for (int j = 0; j < 8; j++) {
              sum += (Integer) InstrumentedRun.call(c, "built", i, j)
                  + (long) (float) (Float) InstrumentedRun.call(c, "local", i, j)
                  + (Long) InstrumentedRun.call(c, "cube", i, j, i + j) + (Integer) invoke(rows, "grid", i, j);
            }
            sum += (long) (float) (Float) InstrumentedRun.call(c, "sumRatios")
                + (Integer) InstrumentedRun.call(c, "bulkRows", i);
          }
          sums[slot] = sum;
        });
      }
      for (Thread t : threads) {
        run.join(t);
      }
      assertEquals(expected, sums[0]);
      assertEquals(expected, sums[1]);
      assertEquals(Set.of(), run.racyFields());
      assertEquals(0, run.internalErrors());
    }
  }

  /** What the two threads of the test above compute, uninstrumented. */
  private static long readAll(StableRows rows) {
    long sum = 0;
    for (int i = 0; i < 16; i++) {
      for (int j = 0; j < 8; j++) {
        sum += StableRows.built(i, j) + (long) StableRows.local(i, j) + StableRows.cube(i, j, i + j)
            + rows.grid(i, j);
      }
      sum += (long) StableRows.sumRatios() + StableRows.bulkRows(i);
    }
    return sum;
  }

  @Test
  void rowsLetOutWrittenLaterOrTakenFromElsewhereKeepTheirHooksAndTheTablesLoadsLoseTheirs() {
    StableArrays stable = StableArrays.of(new ClassReader(original(UnstableRows.class)), FILES);
    // SHARED is stored as another table's row: not stable itself
    assertEquals(Set.of("PASSED", "WRITTEN", "RETURNED", "STORED", "COPIED", "FOREIGN", "given"), stable.fields());
    assertEquals(Set.of(), stable.rows());
    // the table's aaloads are skipped, the rows' accesses are not
    assertEquals(bits(0, 1), stable.skips("passed", "(I)I").elements()); // a row to RowReader.first
    assertEquals(bits(0), stable.skips("write", "(II)V").elements());
    assertEquals(bits(0), stable.skips("readWritten", "(I)I").elements());
    assertEquals(bits(0), stable.skips("returned", "(I)[I").elements());
    assertEquals(bits(0, 1), stable.skips("stored", "(I)I").elements()); // kept in a static
    assertEquals(bits(2), stable.skips("copied", "()I").elements()); // the clone shares its rows
    assertEquals(bits(0), stable.skips("foreign", "(I)I").elements()); // SHARED is a row
    assertEquals(bits(0), stable.skips("given", "(I)I").elements()); // the constructor's argument is a row
    assertEquals(bits(0), stable.skips("copied", "()I").bulkCalls()); // COPIED.clone() reads the table only
    // <clinit>: its stores into the tables (the aastores of PASSED's, RETURNED's, STORED's, COPIED's and FOREIGN's
    // rows) go unhooked; those into the rows (the literals' iastores) and into SHARED keep their hooks
    assertEquals(bits(3, 7, 9, 11, 13, 15, 17, 19, 21, 23), stable.skips("<clinit>", "()V").elements());
  }

  @Test
  void aRowWrittenOutsideTheInitialiserStillRacesWhileTheTablesLoadsGoUnhooked() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(UnstableRows.class);
      for (int t = 0; t < 2; t++) {
        int v = t;
        InstrumentedRun.awaitEndWithoutEdge(run.start(() -> InstrumentedRun.call(c, "write", 1, v)));
      }
      // the row has no field's name: it is named after the method that wrote it
      assertEquals(Set.of(UnstableRows.class.getName() + ".write()[]"), run.racyFields());
      assertEquals(0, run.internalErrors());
    }
  }

  private static BitSet bits(int... set) {
    BitSet b = new BitSet();
    for (int i : set) {
      b.set(i);
    }
    return b;
  }

  /** The number of array loads and stores of {@code m}. */
  private static int arrayAccesses(MethodNode m) {
    int n = 0;
    for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
      if (ConfinedArrays.isArrayLoad(insn.getOpcode()) || ConfinedArrays.isArrayStore(insn.getOpcode())) {
        n++;
      }
    }
    return n;
  }

  /** The number of bulk array calls of {@code m}. */
  private static int bulkCalls(MethodNode m) {
    int n = 0;
    for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
      if (insn instanceof MethodInsnNode call
          && BulkArrayCalls.of(call.getOpcode(), call.owner, call.name, call.desc) != null) {
        n++;
      }
    }
    return n;
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
