package dev.racetriage.agent.instrument;

import dev.racetriage.agent.detect.SiteTable;
import dev.racetriage.agent.runtime.FieldRegistry;
import dev.racetriage.agent.runtime.JumbleTargets;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassTooLargeException;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.Opcodes;

/**
 * Turns one class file into its instrumented form, or says why it cannot: a class it cannot handle is returned
 * unchanged (null) and reported, never half-instrumented.
 */
public final class ClassInstrumenter {

  /** The result: new bytes, or null with the reason the class stays as it is. */
  public record Outcome(byte[] bytes, String skipReason) {
    static Outcome skipped(String reason) {
      return new Outcome(null, reason);
    }
  }

  /** The newest class-file major version the bundled ASM reads (ASM 9.9: Java 26). */
  static final int LATEST_SUPPORTED_MAJOR = Opcodes.V26;

  private final ClassHierarchy hierarchy = new ClassHierarchy();
  private final SiteTable sites;
  private final FieldRegistry fields;
  private final JumbleTargets jumble;

  /** Detect mode: every access is hooked for the race detector. */
  public ClassInstrumenter(SiteTable sites, FieldRegistry fields) {
    this(sites, fields, null);
  }

  /**
   * @param jumble jumble mode when non-null: only the accesses of these fields are hooked (their reads return the
   *               adversarial memory's choice); synchronisation is hooked as in detect mode
   */
  public ClassInstrumenter(SiteTable sites, FieldRegistry fields, JumbleTargets jumble) {
    this.sites = sites;
    this.fields = fields;
    this.jumble = jumble;
  }

  public Outcome instrument(ClassKind kind, ClassLoader loader, byte[] classFile) {
    int major = classFile.length >= 8 ? ((classFile[6] & 0xFF) << 8) | (classFile[7] & 0xFF) : -1;
    ClassReader reader;
    try {
      reader = new ClassReader(classFile);
    } catch (RuntimeException e) { // IllegalArgumentException for a version, anything for a truncated file
      if (major > LATEST_SUPPORTED_MAJOR) {
        return Outcome.skipped(SkipReason.versionTooNew(major));
      }
      return Outcome.skipped(SkipReason.unreadable(e));
    }
    String name = reader.getClassName();
    try {
      if (kind == ClassKind.THREAD) {
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        reader.accept(new ThreadClassVisitor(writer), ClassReader.EXPAND_FRAMES);
        return new Outcome(writer.toByteArray(), null);
      }
      if ((reader.getAccess() & (Opcodes.ACC_MODULE)) != 0) {
        return new Outcome(null, null); // module-info: no code
      }
      hierarchy.remember(loader, reader);
      boolean frames = major >= Opcodes.V1_6;
      ClassWriter writer = new HierarchyClassWriter(reader,
          frames ? ClassWriter.COMPUTE_FRAMES : ClassWriter.COMPUTE_MAXS, hierarchy, loader);
      ClassContext ctx = new ClassContext(name, null, major, loader, hierarchy, sites, fields, jumble);
      ClassVisitor visitor = new InstrumentingClassVisitor(writer, ctx, kind == ClassKind.APPLICATION);
      reader.accept(visitor, frames ? ClassReader.SKIP_FRAMES : 0);
      return new Outcome(writer.toByteArray(), null);
    } catch (MethodTooLargeException e) {
      return Outcome.skipped(SkipReason.methodTooLarge(e.getMethodName() + e.getDescriptor()));
    } catch (ClassTooLargeException e) {
      return Outcome.skipped(SkipReason.classTooLarge());
    } catch (Throwable e) {
      return Outcome.skipped(SkipReason.unreadable(e));
    }
  }
}
