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
}
