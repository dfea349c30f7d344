package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ClassHierarchyTest {
  private final ClassHierarchy hierarchy = new ClassHierarchy();
  private final ClassLoader loader = getClass().getClassLoader();

  interface Constants {
    int LIMIT = 3;
  }

  static class Base {
    volatile int flag;
    final int fixed = 1;
    static long counter;
  }

  static class Derived extends Base implements Constants {
    int own;
  }

  private static String internal(Class<?> c) {
    return c.getName().replace('.', '/');
  }

  @Test
  void recordingsNestLikeTransformationsOnOneThread() {
    java.util.Set<String> outer = hierarchy.startRecording();
    hierarchy.resolveField(loader, internal(Base.class), "flag");
    java.util.Set<String> enclosing = hierarchy.startRecording(); // another class is transformed meanwhile
    hierarchy.resolveField(loader, internal(Constants.class), "LIMIT");
    assertEquals(java.util.Set.of(internal(Constants.class)), hierarchy.stopRecording(enclosing));
    hierarchy.resolveField(loader, internal(Derived.class), "own");
    assertEquals(java.util.Set.of(internal(Base.class), internal(Constants.class), internal(Derived.class)),
        hierarchy.stopRecording(outer), "the outer recording keeps going and is never narrower than the inner");
    assertNull(outer);
  }

  @Test
  void fieldsResolveToTheirDeclaringClassWithTheirFlags() {
    ClassHierarchy.ResolvedField flag = hierarchy.resolveField(loader, internal(Derived.class), "flag");
    assertEquals(internal(Base.class), flag.declaringClass());
    assertTrue(flag.isVolatile());
    assertFalse(flag.isFinal());
    assertTrue(hierarchy.resolveField(loader, internal(Derived.class), "fixed").isFinal());
    assertTrue(hierarchy.resolveField(loader, internal(Derived.class), "counter").isStatic());
    assertEquals(internal(Constants.class),
        hierarchy.resolveField(loader, internal(Derived.class), "LIMIT").declaringClass());
    assertEquals(internal(Derived.class), hierarchy.resolveField(loader, internal(Derived.class), "own")
        .declaringClass());
    assertNull(hierarchy.resolveField(loader, internal(Derived.class), "missing"));
    assertNull(hierarchy.resolveField(loader, "no/such/Type", "x"));
  }

  @Test
  void commonSuperClassesComeFromClassFilesNotFromLoadingClasses() {
    assertEquals(internal(Base.class), hierarchy.commonSuperClass(loader, internal(Derived.class),
        internal(Base.class)));
    assertEquals("java/util/AbstractList", hierarchy.commonSuperClass(loader, "java/util/ArrayList",
        "java/util/Vector"));
    assertEquals("java/lang/Object", hierarchy.commonSuperClass(loader, "java/util/ArrayList", "java/lang/String"));
    assertEquals("java/lang/Object", hierarchy.commonSuperClass(loader, "java/util/List", "java/util/ArrayList"));
    assertTrue(hierarchy.isSubclassOf(loader, "java/util/Stack", "java/util/Vector"));
    assertFalse(hierarchy.isSubclassOf(loader, "java/util/ArrayList", "java/lang/Thread"));
  }
}
