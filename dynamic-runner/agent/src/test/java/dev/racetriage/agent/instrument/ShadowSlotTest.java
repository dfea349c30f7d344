package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.detect.SiteTable;
import dev.racetriage.agent.instrument.fixtures.ShadowSlots;
import dev.racetriage.agent.runtime.FieldRegistry;
import java.io.ObjectStreamClass;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Which classes get the shadow slot field, and that it changes nothing the program can rely on. */
class ShadowSlotTest {
  private static final String PREFIX = InstrumentedRun.FIXTURES + "ShadowSlots";

  private final Predicate<String> application = name -> name.replace('/', '.').startsWith(PREFIX);
  private final InstrumentingLoader loader = new InstrumentingLoader(getClass().getClassLoader(), PREFIX,
      new ClassInstrumenter(new SiteTable(), new FieldRegistry(), null, null, application));
  private final InstrumentingLoader plain = new InstrumentingLoader(getClass().getClassLoader(), PREFIX, null);

  private Class<?> load(Class<?> fixture) throws ClassNotFoundException {
    return loader.loadClass(fixture.getName());
  }

  private static boolean declaresSlot(Class<?> type) {
    return Arrays.stream(type.getDeclaredFields()).anyMatch(f -> f.getName().equals(ShadowSlot.NAME));
  }

  /** The fields the instrumenter gives a JDK class's bytes (a java.* class cannot be defined by a test loader). */
  private static java.util.List<String> fieldsOf(byte[] classFile) {
    java.util.List<String> names = new java.util.ArrayList<>();
    new org.objectweb.asm.ClassReader(classFile).accept(new org.objectweb.asm.ClassVisitor(org.objectweb.asm.Opcodes.ASM9) {
      @Override
      public org.objectweb.asm.FieldVisitor visitField(int access, String name, String descriptor, String signature,
                                                       Object value) {
        if (name.equals(ShadowSlot.NAME)) {
          assertEquals(ShadowSlot.ACCESS, access);
        }
        names.add(name);
        return null;
      }
    }, 0);
    return names;
  }

  private static byte[] jdkClass(String internalName) throws java.io.IOException {
    try (java.io.InputStream in = ClassLoader.getSystemResourceAsStream(internalName + ".class")) {
      return in.readAllBytes();
    }
  }

  @Test
  void aTrustedJdkRootGetsTheSlotAtItsFirstDefinitionOnlyInDetectMode() throws Exception {
    ClassInstrumenter detect = new ClassInstrumenter(new SiteTable(), new FieldRegistry());
    byte[] node = jdkClass("java/util/concurrent/ConcurrentSkipListMap$Node");
    assertTrue(fieldsOf(detect.instrument(ClassKind.TRUSTED_JDK, null, node, true).bytes()).contains(ShadowSlot.NAME));
    // a retransformation of a class defined without it (loaded before the agent) must not add a field
    assertFalse(fieldsOf(detect.instrument(ClassKind.TRUSTED_JDK, null, node, false).bytes())
        .contains(ShadowSlot.NAME));
    // a JDK superclass other than Object: AtomicInteger extends Number
    assertFalse(fieldsOf(detect.instrument(ClassKind.TRUSTED_JDK, null,
        jdkClass("java/util/concurrent/atomic/AtomicInteger"), true).bytes()).contains(ShadowSlot.NAME));
    ClassInstrumenter jumbled = new ClassInstrumenter(new SiteTable(), new FieldRegistry(),
        new dev.racetriage.agent.runtime.JumbleTargets(java.util.List.of("x.Y.z")), null, application);
    byte[] jumbledNode = jumbled.instrument(ClassKind.TRUSTED_JDK, null, node, true).bytes();
    assertTrue(jumbledNode == null || !fieldsOf(jumbledNode).contains(ShadowSlot.NAME));
  }

  /** What the transformer asks at a retransformation: does the loaded class itself declare the slot? */
  @Test
  void aRetransformationKeepsTheSlotOfTheClassThatDeclaresItAndAddsNoneElsewhere() throws Exception {
    assertTrue(dev.racetriage.agent.runtime.ShadowSlots.available(), "jdk.internal.misc must be exported to the tests");
    assertTrue(dev.racetriage.agent.runtime.ShadowSlots.declares(load(ShadowSlots.Base.class)));
    assertFalse(dev.racetriage.agent.runtime.ShadowSlots.declares(load(ShadowSlots.Derived.class)));
    // a JDK class loaded before any agent ran
    assertFalse(dev.racetriage.agent.runtime.ShadowSlots.declares(java.util.concurrent.ConcurrentHashMap.class));
    assertFalse(dev.racetriage.agent.runtime.ShadowSlots.declares(int[].class));
  }

  @Test
  void aHierarchyRootDeclaresAPrivateTransientSyntheticSlotItsSubclassesInherit() throws Exception {
    Class<?> base = load(ShadowSlots.Base.class);
    Field slot = base.getDeclaredField(ShadowSlot.NAME);
    assertTrue(Modifier.isPrivate(slot.getModifiers()) && Modifier.isTransient(slot.getModifiers()));
    assertTrue(slot.isSynthetic());
    assertFalse(Modifier.isStatic(slot.getModifiers()));
    assertEquals(Object.class, slot.getType());
    assertFalse(declaresSlot(load(ShadowSlots.Derived.class)));
    assertTrue(base.isAssignableFrom(load(ShadowSlots.Derived.class)));
  }

  @Test
  void recordsInterfacesAndJumbleModeGetNoSlot() throws Exception {
    assertFalse(declaresSlot(load(ShadowSlots.Point.class)));
    assertFalse(declaresSlot(load(ShadowSlots.Shape.class)));
    var jumbled = new InstrumentingLoader(getClass().getClassLoader(), PREFIX, new ClassInstrumenter(new SiteTable(),
        new FieldRegistry(), new dev.racetriage.agent.runtime.JumbleTargets(java.util.List.of(
            ShadowSlots.Value.class.getName() + ".x")), null, application));
    assertFalse(declaresSlot(jumbled.loadClass(ShadowSlots.Value.class.getName())));
  }

  @Test
  void theDefaultSerialVersionUidIsUnchanged() throws Exception {
    Class<?> instrumented = load(ShadowSlots.Value.class);
    assertTrue(declaresSlot(instrumented));
    Class<?> original = plain.loadClass(ShadowSlots.Value.class.getName());
    assertEquals(ObjectStreamClass.lookup(original).getSerialVersionUID(),
        ObjectStreamClass.lookup(instrumented).getSerialVersionUID());
    // and the serialized form has the program's fields only
    assertEquals(2, ObjectStreamClass.lookup(instrumented).getFields().length);
  }

  @Test
  void withoutTheFilterEveryClassDeclaresItsOwnAndTheCodeStillRuns() throws Exception {
    var each = new InstrumentingLoader(getClass().getClassLoader(), PREFIX,
        new ClassInstrumenter(new SiteTable(), new FieldRegistry(), null, null));
    Class<?> derived = each.loadClass(ShadowSlots.Derived.class.getName());
    assertTrue(declaresSlot(derived));
    assertTrue(declaresSlot(derived.getSuperclass()));
    Object value = each.loadClass(ShadowSlots.Value.class.getName()).getConstructor().newInstance();
    assertEquals(0, value.getClass().getMethod("x").invoke(value));
  }

  /** The instructions of method {@code method} that read a slot or decide the guard, in order. */
  private static java.util.List<String> guardOf(byte[] classFile, String method) {
    java.util.List<String> order = new java.util.ArrayList<>();
    new org.objectweb.asm.ClassReader(classFile).accept(new org.objectweb.asm.ClassVisitor(org.objectweb.asm.Opcodes.ASM9) {
      @Override
      public org.objectweb.asm.MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                                         String[] exceptions) {
        if (!name.equals(method)) {
          return null;
        }
        return new org.objectweb.asm.MethodVisitor(org.objectweb.asm.Opcodes.ASM9) {
          @Override
          public void visitFieldInsn(int opcode, String owner, String field, String d) {
            order.add("field " + field);
          }

          @Override
          public void visitInvokeDynamicInsn(String name, String d, org.objectweb.asm.Handle bootstrap, Object... args) {
            order.add("indy " + bootstrap.getName() + " " + args[0]);
          }

          @Override
          public void visitMethodInsn(int opcode, String owner, String name, String d, boolean itf) {
            order.add("call " + name);
          }
        };
      }
    }, 0);
    return order;
  }

  private static byte[] instrumentedBytes(Class<?> fixture, Predicate<String> application) throws java.io.IOException {
    String name = fixture.getName().replace('.', '/');
    try (java.io.InputStream in = fixture.getClassLoader().getResourceAsStream(name + ".class")) {
      return new ClassInstrumenter(new SiteTable(), new FieldRegistry(), null, null, application)
          .instrument(ClassKind.APPLICATION, fixture.getClassLoader(), in.readAllBytes()).bytes();
    }
  }

  /**
   * The owned-read guard where the class cannot getfield the slot — a subclass reading an inherited field — reads it
   * through an invokedynamic site linked to the slot's offset: the thread that made every write skips the hook, and a
   * read that races still reaches it.
   */
  @Test
  void aSubclassGuardsReadsThroughTheLinkedSlotLoadAndRacesAreStillFound() throws Throwable {
    assertEquals(java.util.List.of("field count", "indy slotReader L" + ShadowSlots.Derived.class.getName()
            .replace('.', '/') + ";", "call ownedShadow", "call readField"),
        guardOf(instrumentedBytes(ShadowSlots.Derived.class, application), "count"));
    // another class's field: the hook alone (its objects are more often shared, where a guard only adds work)
    assertEquals(java.util.List.of("field count", "call readField"),
        guardOf(instrumentedBytes(ShadowSlots.Reader.class, application), "countOf"));
    // the class that declares the slot still reads it with its own getfield
    assertEquals(java.util.List.of("field count", "field " + ShadowSlot.NAME, "call ownedShadow", "call readField"),
        guardOf(instrumentedBytes(ShadowSlots.Derived.class, name -> false), "count"));

    try (InstrumentedRun run = new InstrumentedRun(application)) {
      Class<?> derived = run.load(ShadowSlots.Derived.class);
      Class<?> reader = run.load(ShadowSlots.Reader.class);
      assertFalse(declaresSlot(derived));
      Object mine = derived.getConstructor().newInstance();
      InstrumentedRun.call(derived, "setCount", mine, 5);
      assertEquals(5, InstrumentedRun.call(derived, "count", mine));
      assertEquals(5, InstrumentedRun.call(reader, "countOf", mine));
      // the linked load finds the shadow the runtime installed in the superclass's slot: this thread's writes only
      java.lang.invoke.MethodType type = java.lang.invoke.MethodType.methodType(Object.class, Object.class);
      Object slot = dev.racetriage.agent.runtime.ShadowSlots.slotReader(java.lang.invoke.MethodHandles.lookup(), "slot",
          type, derived).dynamicInvoker().invoke(mine);
      assertTrue(dev.racetriage.agent.runtime.Hooks.ownedShadow(slot), "the owner's read skips the hook");
      // a class without a slot links to a constant null: the guard falls through to the hook
      assertEquals(null, dev.racetriage.agent.runtime.ShadowSlots.slotReader(java.lang.invoke.MethodHandles.lookup(),
          "slot", type, String.class).dynamicInvoker().invoke("no slot"));
      assertEquals(java.util.Set.of(), run.racyFields());

      // another thread's unordered write: the guarded read falls through to its hook, which reports it, as does the
      // other class's unguarded read
      Object shared = derived.getConstructor().newInstance();
      InstrumentedRun.awaitEndWithoutEdge(run.start(() -> InstrumentedRun.call(derived, "setCount", shared, 7)));
      InstrumentedRun.awaitEndWithoutEdge(run.start(() -> InstrumentedRun.call(derived, "count", shared)));
      Object other = derived.getConstructor().newInstance();
      InstrumentedRun.awaitEndWithoutEdge(run.start(() -> InstrumentedRun.call(derived, "setCount", other, 8)));
      InstrumentedRun.awaitEndWithoutEdge(run.start(() -> InstrumentedRun.call(reader, "countOf", other)));
      String key = ShadowSlots.Base.class.getName() + ".count";
      assertEquals(java.util.Set.of(key), run.racyFields());
      assertEquals(java.util.Set.of("count", "countOf"), run.races(key).sitePairs().stream()
          .map(p -> p.current().methodName()).collect(java.util.stream.Collectors.toSet()));
      assertEquals(0, run.internalErrors());
    }
  }
}
