package dev.racetriage.agent.instrument;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;

/** A ClassWriter whose frame computation asks {@link ClassHierarchy} instead of loading classes. */
final class HierarchyClassWriter extends ClassWriter {

  private final ClassHierarchy hierarchy;
  private final ClassLoader loader;

  HierarchyClassWriter(ClassReader reader, int flags, ClassHierarchy hierarchy, ClassLoader loader) {
    super(reader, flags);
    this.hierarchy = hierarchy;
    this.loader = loader;
  }

  @Override
  protected String getCommonSuperClass(String type1, String type2) {
    return hierarchy.commonSuperClass(loader, type1, type2);
  }
}
