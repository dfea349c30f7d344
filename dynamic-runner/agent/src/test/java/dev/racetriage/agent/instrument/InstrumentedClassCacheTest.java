package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.detect.SiteTable;
import dev.racetriage.agent.runtime.FieldRegistry;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The class cache on generated classes {@code gen.Base} (a field {@code x}, plain or volatile) and {@code gen.Sub}
 * (extends Base, reads and writes the inherited {@code x}), read through a loader over a directory, as the agent reads
 * an application's classes: hits bind to the run's own ids, a changed class, agent identity or superclass misses,
 * a damaged entry is ignored with a warning and rewritten.
 */
class InstrumentedClassCacheTest {
  @TempDir
  Path tmp;

  private final ByteArrayOutputStream warnings = new ByteArrayOutputStream();
  private final PrintStream warningStream = new PrintStream(warnings, true, StandardCharsets.UTF_8);

  /** A run of the agent: its own id tables, with {@code shift} unrelated fields and sites registered first. */
  private record Run(SiteTable sites, FieldRegistry fields, ClassInstrumenter instrumenter) {
    static Run of(InstrumentedClassCache cache, int shift) {
      SiteTable sites = new SiteTable();
      FieldRegistry fields = new FieldRegistry();
      for (int i = 0; i < shift; i++) {
        sites.register("other.Cls", "m" + i, "Cls.java", i);
        fields.id("other/Cls", "f" + i);
      }
      return new Run(sites, fields, new ClassInstrumenter(sites, fields, null, cache));
    }

    byte[] instrument(ClassLoader loader, byte[] classFile) {
      byte[] bytes = instrumenter.instrument(ClassKind.APPLICATION, loader, classFile).bytes();
      assertNotNull(bytes);
      return bytes;
    }
  }

  @Test
  void aHitBindsTheCachedBytesToThisRunsIdsExactlyAsInstrumentingAgainWould() throws Exception {
    ClassLoader loader = loaderWith(base(false));
    byte[] sub = sub(1);
    Run first = Run.of(cache("agent-1"), 0);
    first.instrument(loader, sub);

    InstrumentedClassCache cache = cache("agent-1");
    Run second = Run.of(cache, 7); // other classes came first in this run: other ids
    byte[] fromCache = second.instrument(loader, sub);
    byte[] fresh = Run.of(null, 7).instrument(loader, sub);

    assertArrayEquals(fresh, fromCache);
    assertEquals(1, cache.counts()[0], "hits");
    assertEquals("gen.Sub.get(Sub.java:10)", second.sites().site(7).toString());
    assertEquals("gen.Base.x", second.fields().key(7));
    assertEquals(List.of("ownedShadow", "readField", "writeField"), hookCalls(fromCache));
  }

  @Test
  void aChangedClassAChangedAgentOrAChangedSuperclassIsAMiss() throws Exception {
    ClassLoader loader = loaderWith(base(false));
    Run.of(cache("agent-1"), 0).instrument(loader, sub(1));

    InstrumentedClassCache sameAgent = cache("agent-1");
    Run.of(sameAgent, 0).instrument(loader, sub(2));
    assertEquals(0, sameAgent.counts()[0]);
    assertEquals(1, sameAgent.counts()[1], "misses");
    assertEquals(2, tmp.resolve("cache/agent-1").toFile().list((d, n) -> n.endsWith(".rtc")).length);

    InstrumentedClassCache otherAgent = cache("agent-2");
    Run.of(otherAgent, 0).instrument(loader, sub(1));
    assertEquals(1, otherAgent.counts()[1], "an entry of another agent build is never used");

    // Base.x became volatile: Sub's bytes are the same, but its read of x must now be an acquire
    InstrumentedClassCache afterChange = cache("agent-1");
    byte[] out = Run.of(afterChange, 0).instrument(loaderWith(base(true)), sub(1));
    assertEquals(1, afterChange.counts()[2], "stale");
    assertEquals(List.of("volatileRead", "volatileWrite"), hookCalls(out));
    assertEquals(out.length, Run.of(cache("agent-1"), 0).instrument(loaderWith(base(true)), sub(1)).length);
  }

  @Test
  void aDamagedEntryIsIgnoredWithAWarningAndRewritten() throws Exception {
    ClassLoader loader = loaderWith(base(false));
    byte[] sub = sub(1);
    InstrumentedClassCache first = cache("agent-1");
    byte[] expected = Run.of(first, 0).instrument(loader, sub);
    File entry = first.entryFile('A', sub);
    byte[] data = Files.readAllBytes(entry.toPath());

    for (byte[] damaged : List.of(flipped(data, data.length / 2), java.util.Arrays.copyOf(data, data.length / 3),
        new byte[0])) {
      Files.write(entry.toPath(), damaged);
      InstrumentedClassCache cache = cache("agent-1");
      assertArrayEquals(expected, Run.of(cache, 0).instrument(loader, sub));
      assertEquals(1, cache.counts()[3], "damaged");
      assertEquals(1, cache.counts()[4], "rewritten");
      String warning = warnings.toString(StandardCharsets.UTF_8);
      assertTrue(warning.contains("WARNING: ignoring the damaged class cache entry " + entry.getAbsolutePath()),
          warning);
      warnings.reset();

      InstrumentedClassCache after = cache("agent-1");
      assertArrayEquals(expected, Run.of(after, 0).instrument(loader, sub));
      assertEquals(1, after.counts()[0], "the rewritten entry hits");
    }
  }

  @Test
  void anUnwritableCacheDirectoryIsAWarningNotAFailure() throws Exception {
    File blocker = tmp.resolve("file").toFile();
    Files.writeString(blocker.toPath(), "not a directory");
    assertEquals(null, InstrumentedClassCache.open(blocker, "agent-1", warningStream));
    assertTrue(warnings.toString(StandardCharsets.UTF_8).contains("cannot create the class cache directory"));
  }

  @Test
  void placeholdersAvoidTheIntegerConstantsOfTheClassAndTheProgramStillComputesThem() throws Exception {
    int[] constants = {0x5A000000, 0x5A000001, 0x5B000000, 0x7F00FF00};
    byte[] withConstants = withConstants(constants);
    InstrumentedClassCache cache = cache("agent-1");
    ClassLoader loader = loaderWith(base(false));
    byte[] out = Run.of(cache, 3).instrument(loader, withConstants);
    byte[] again = Run.of(cache("agent-1"), 3).instrument(loader, withConstants);
    assertArrayEquals(out, again);

    List<Integer> pool = new ArrayList<>();
    for (int offset : ConstantPool.integerOffsets(out)) {
      pool.add(ConstantPool.u4(out, offset));
    }
    for (int c : constants) {
      assertTrue(pool.contains(c), pool.toString());
    }
    assertTrue(pool.contains(3), "the site and field ids of this run: " + pool);
    Class<?> loaded = new ClassLoader(loader) {
      Class<?> define() {
        return defineClass("gen.Constants", out, 0, out.length);
      }
    }.define();
    Object sum = loaded.getMethod("sum").invoke(loaded.getConstructor().newInstance());
    assertEquals(constants[0] + constants[1] + constants[2] + constants[3], sum);
  }

  @Test
  void theConstantPoolReaderFindsTheIntegerConstantsAsmFinds() throws IOException {
    for (String name : List.of("java/util/concurrent/ConcurrentHashMap", "java/lang/Integer", "java/lang/Character",
        "java/util/concurrent/ForkJoinPool", "java/util/HashMap")) {
      byte[] bytes;
      try (InputStream in = ClassLoader.getSystemResourceAsStream(name + ".class")) {
        bytes = in.readAllBytes();
      }
      ClassReader reader = new ClassReader(bytes);
      List<Integer> asm = new ArrayList<>();
      for (int i = 1; i < reader.getItemCount(); i++) {
        int offset = reader.getItem(i);
        if (offset > 0 && bytes[offset - 1] == 3) {
          asm.add(offset);
        }
      }
      List<Integer> ours = new ArrayList<>();
      for (int offset : ConstantPool.integerOffsets(bytes)) {
        ours.add(offset);
      }
      assertEquals(asm, ours, name);
      assertFalse(ours.isEmpty(), name);
    }
  }

  // ---- fixtures ----

  /** Each open marks the directory's last use (its modification time), which the runner's pruning goes by. */
  @Test
  void openingTheCacheMarksItsDirectoryAsJustUsed() throws Exception {
    File dir = cache("v1-aa-bb").directory();
    long monthAgo = System.currentTimeMillis() - 30L * 24 * 3600 * 1000;
    assertTrue(dir.setLastModified(monthAgo));
    long before = System.currentTimeMillis() - 1000;
    cache("v1-aa-bb");
    assertTrue(dir.lastModified() >= before, "last used " + dir.lastModified() + ", expected after " + before);
  }

  private InstrumentedClassCache cache(String identity) {
    return InstrumentedClassCache.open(tmp.resolve("cache").toFile(), identity, warningStream);
  }

  private ClassLoader loaderWith(byte[] base) throws IOException {
    Path dir = Files.createTempDirectory(tmp, "classes");
    Files.createDirectories(dir.resolve("gen"));
    Files.write(dir.resolve("gen/Base.class"), base);
    return new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader());
  }

  /** {@code public class gen.Base { public [volatile] int x; }} */
  private static byte[] base(boolean volatileX) {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
    cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "gen/Base", null, "java/lang/Object", null);
    cw.visitField(Opcodes.ACC_PUBLIC | (volatileX ? Opcodes.ACC_VOLATILE : 0), "x", "I", null, null).visitEnd();
    constructor(cw, "java/lang/Object");
    cw.visitEnd();
    return cw.toByteArray();
  }

  /** {@code class gen.Sub extends Base { int get() { x = x + k; return x; } }} — k makes versions differ. */
  private static byte[] sub(int k) {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
    cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "gen/Sub", null, "gen/Base", null);
    cw.visitSource("Sub.java", null);
    constructor(cw, "gen/Base");
    MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "get", "()I", null, null);
    mv.visitCode();
    org.objectweb.asm.Label line = new org.objectweb.asm.Label();
    mv.visitLabel(line);
    mv.visitLineNumber(10, line);
    mv.visitVarInsn(Opcodes.ALOAD, 0);
    mv.visitVarInsn(Opcodes.ALOAD, 0);
    mv.visitFieldInsn(Opcodes.GETFIELD, "gen/Sub", "x", "I");
    mv.visitIntInsn(Opcodes.BIPUSH, k);
    mv.visitInsn(Opcodes.IADD);
    mv.visitFieldInsn(Opcodes.PUTFIELD, "gen/Sub", "x", "I");
    mv.visitInsn(Opcodes.ICONST_0);
    mv.visitInsn(Opcodes.IRETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    cw.visitEnd();
    return cw.toByteArray();
  }

  /** {@code class gen.Constants extends Base { int sum() { x = 1; return c0 + c1 + ...; } }} */
  private static byte[] withConstants(int[] constants) {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
    cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "gen/Constants", null, "gen/Base", null);
    constructor(cw, "gen/Base");
    MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "sum", "()I", null, null);
    mv.visitCode();
    mv.visitVarInsn(Opcodes.ALOAD, 0);
    mv.visitInsn(Opcodes.ICONST_1);
    mv.visitFieldInsn(Opcodes.PUTFIELD, "gen/Constants", "x", "I");
    mv.visitInsn(Opcodes.ICONST_0);
    for (int c : constants) {
      mv.visitLdcInsn(c);
      mv.visitInsn(Opcodes.IADD);
    }
    mv.visitInsn(Opcodes.IRETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    cw.visitEnd();
    return cw.toByteArray();
  }

  private static void constructor(ClassWriter cw, String superName) {
    MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
    mv.visitCode();
    mv.visitVarInsn(Opcodes.ALOAD, 0);
    mv.visitMethodInsn(Opcodes.INVOKESPECIAL, superName, "<init>", "()V", false);
    mv.visitInsn(Opcodes.RETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
  }

  private static byte[] flipped(byte[] data, int at) {
    byte[] copy = data.clone();
    copy[at] ^= 0x55;
    return copy;
  }

  /** The hook methods the class calls (through HookEntry), in order. */
  private static List<String> hookCalls(byte[] classFile) {
    List<String> calls = new ArrayList<>();
    new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                       String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitMethodInsn(int opcode, String owner, String method, String desc, boolean itf) {
            if (HookMethod.isOwner(owner)) {
              calls.add(method);
            }
          }
        };
      }
    }, 0);
    return calls;
  }
}
