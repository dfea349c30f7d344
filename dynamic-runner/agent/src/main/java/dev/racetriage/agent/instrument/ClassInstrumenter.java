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
  private final InstrumentedClassCache cache;
  /** Which superclasses are application classes, so have or inherit the shadow slot ({@link ShadowSlot}). */
  private final java.util.function.Predicate<String> applicationClass;

  /** Detect mode: every access is hooked for the race detector. */
  public ClassInstrumenter(SiteTable sites, FieldRegistry fields) {
    this(sites, fields, null, null);
  }

  /** Not a lambda: the agent's start-up spins no lambda forms (see AgentBootstrap). */
  private static final java.util.function.Predicate<String> NO_APPLICATION_SUPERCLASS =
      new java.util.function.Predicate<>() {
        @Override
        public boolean test(String superName) {
          return false;
        }
      };

  /** As below, with every superclass taken for a class without the shadow slot (each class declares its own). */
  public ClassInstrumenter(SiteTable sites, FieldRegistry fields, JumbleTargets jumble, InstrumentedClassCache cache) {
    this(sites, fields, jumble, cache, NO_APPLICATION_SUPERCLASS);
  }

  /**
   * @param jumble jumble mode when non-null: only the accesses of these fields are hooked (their reads return the
   *               adversarial memory's choice); synchronisation is hooked as in detect mode
   * @param cache  where instrumented classes are kept between runs, or null for none; its directory must be
   *               specific to everything that changes what this instrumenter emits (mode, jumble fields, agent jar)
   * @param applicationClass true for the internal names of application classes (the instrumentation filter's
   *               verdict): a class whose superclass is one inherits its shadow slot instead of declaring one
   */
  public ClassInstrumenter(SiteTable sites, FieldRegistry fields, JumbleTargets jumble, InstrumentedClassCache cache,
                           java.util.function.Predicate<String> applicationClass) {
    this.applicationClass = applicationClass;
    this.sites = sites;
    this.fields = fields;
    this.jumble = jumble;
    this.cache = cache;
  }

  /** As below, for a class that may get a shadow slot if it is a trusted JDK class (its first definition). */
  public Outcome instrument(ClassKind kind, ClassLoader loader, byte[] classFile) {
    return instrument(kind, loader, classFile, true);
  }

  /**
   * @param jdkSlotAllowed for a trusted JDK class in detect mode: whether it may declare the shadow slot — true at its
   *               first definition, and at a retransformation only if that definition declared it (a
   *               retransformation cannot add or remove a field); see {@link ShadowSlot#declaredByJdk}
   */
  public Outcome instrument(ClassKind kind, ClassLoader loader, byte[] classFile, boolean jdkSlotAllowed) {
    boolean jdkSlot = kind == ClassKind.TRUSTED_JDK && jumble == null && jdkSlotAllowed;
    char variant = jdkSlot ? 'S' : kind.name().charAt(0);
    if (cache != null) {
      CompiledClass cached = cache.lookup(variant, loader, classFile);
      if (cached != null) {
        if (cached.info() != null) {
          hierarchy.remember(loader, cached.info());
        }
        return new Outcome(cached.template().bind(sites, fields), null);
      }
    }
    Object compiled = compile(kind, loader, classFile, jdkSlot);
    if (!(compiled instanceof CompiledClass c)) {
      return (Outcome) compiled;
    }
    byte[] bytes = c.template().bind(sites, fields);
    if (cache != null) {
      cache.store(variant, classFile, c);
    }
    return new Outcome(bytes, null);
  }

  /** Runs ASM: a {@link CompiledClass}, or the {@link Outcome} of a class left as it is. */
  private Object compile(ClassKind kind, ClassLoader loader, byte[] classFile, boolean jdkSlot) {
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
    java.util.Set<String> enclosing = hierarchy.startRecording();
    boolean recording = true;
    try {
      IdPlaceholders ids = IdPlaceholders.forClass(classFile);
      ClassInfo info = null;
      byte[] instrumented;
      if (kind == ClassKind.THREAD) {
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        reader.accept(new ThreadClassVisitor(writer), ClassReader.EXPAND_FRAMES);
        instrumented = writer.toByteArray();
      } else if (kind == ClassKind.QUIET_JDK) {
        ClassWriter writer = new HierarchyClassWriter(reader, ClassWriter.COMPUTE_FRAMES, hierarchy, loader);
        reader.accept(new QuietLinking(writer, name), ClassReader.SKIP_FRAMES);
        instrumented = writer.toByteArray();
      } else {
        if ((reader.getAccess() & (Opcodes.ACC_MODULE)) != 0) {
          return new Outcome(null, null); // module-info: no code
        }
        info = ClassHierarchy.read(reader);
        hierarchy.remember(loader, info);
        boolean frames = major >= Opcodes.V1_6;
        // only detect mode hoists loop checks (InstrumentingClassVisitor), so only it needs the quiet callees
        java.util.Set<String> quietCallees = kind == ClassKind.APPLICATION && jumble == null ? QuietCallees.of(reader)
            : java.util.Set.of();
        GuardedWrites guardedWrites = kind == ClassKind.APPLICATION && jumble == null ? GuardedWrites.of(reader)
            : GuardedWrites.NONE;
        StableArrays stableArrays = kind == ClassKind.APPLICATION && jumble == null
            ? StableArrays.of(reader, new StableArrays.ClassFiles() { // not a lambda, as above
                @Override
                public byte[] read(String other) {
                  return hierarchy.classFile(loader, other);
                }
              }) : StableArrays.NONE;
        java.util.Set<String> unlinked = new java.util.HashSet<>(); // methods without the linked slot loads
        for (;;) {
          ClassWriter writer = new HierarchyClassWriter(reader,
              frames ? ClassWriter.COMPUTE_FRAMES : ClassWriter.COMPUTE_MAXS, hierarchy, loader);
          ClassContext ctx = new ClassContext(name, null, major, loader, hierarchy, ids, jumble)
              .withQuietCallees(quietCallees).withGuardedWrites(guardedWrites)
              .withStableArrays(stableArrays);
          ClassVisitor visitor = new InstrumentingClassVisitor(writer, ctx, kind == ClassKind.APPLICATION,
              applicationClass, jdkSlot, java.util.Set.copyOf(unlinked));
          reader.accept(visitor, frames ? ClassReader.SKIP_FRAMES : 0);
          instrumented = writer.toByteArray();
          // again without the linked slot loads in the methods they took past HotSpot's limit (once: a method the
          // plain hooks take past it stays there)
          if (!unlinked.isEmpty() || !unlinked.addAll(HugeMethods.crossedMethods(classFile, instrumented))) {
            break;
          }
          ids = IdPlaceholders.forClass(classFile);
        }
      }
      IdTemplate template = ids.template(instrumented);
      recording = false;
      return dependencies(loader, name, template, info, hierarchy.stopRecording(enclosing));
    } catch (MethodTooLargeException e) {
      return Outcome.skipped(SkipReason.methodTooLarge(e.getMethodName() + e.getDescriptor()));
    } catch (ClassTooLargeException e) {
      return Outcome.skipped(SkipReason.classTooLarge());
    } catch (Throwable e) {
      return Outcome.skipped(SkipReason.unreadable(e));
    } finally {
      if (recording) {
        hierarchy.stopRecording(enclosing);
      }
    }
  }

  /**
   * The compiled class with the digests of the classes its instrumentation consulted. {@code java.*} classes are
   * left out (the cache directory is per JDK); a class known only from a transformation (no class file to read back)
   * makes the result not reusable.
   */
  private CompiledClass dependencies(ClassLoader loader, String self, IdTemplate template, ClassInfo info,
                                     java.util.Set<String> consulted) {
    if (cache == null) {
      return new CompiledClass(template, info, new String[0], new long[0]);
    }
    java.util.List<String> names = new java.util.ArrayList<>();
    for (String name : consulted) {
      if (!name.equals(self) && !name.startsWith("java/")) {
        names.add(name);
      }
    }
    String[] dependencyNames = names.toArray(new String[0]);
    java.util.Arrays.sort(dependencyNames);
    long[] digests = cache.digestsOf(loader, dependencyNames);
    for (int i = 0; i < digests.length; i++) {
      if (digests[i] == ClassFileDigests.MISSING && hierarchy.known(loader, dependencyNames[i]) != null) {
        return new CompiledClass(template, info, null, null);
      }
    }
    return new CompiledClass(template, info, dependencyNames, digests);
  }
}
