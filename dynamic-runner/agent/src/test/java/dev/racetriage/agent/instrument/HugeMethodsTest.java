package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.detect.SiteTable;
import dev.racetriage.agent.runtime.FieldRegistry;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** The instrumenter never takes a method past HotSpot's huge-method limit with the guards it can do without. */
class HugeMethodsTest {
  private static final String HOLDER = "huge/Holder";
  private static final String READER = "huge/Reader";
  private static final int FIELDS = 600;

  /** A class with {@code FIELDS} int fields (its superclass Object: it declares the shadow slot). */
  private static byte[] holder() {
    ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
    w.visit(Opcodes.V11, Opcodes.ACC_PUBLIC, HOLDER, null, "java/lang/Object", null);
    for (int i = 0; i < FIELDS; i++) {
      w.visitField(Opcodes.ACC_PUBLIC, "f" + i, "I", null, null).visitEnd();
    }
    w.visitEnd();
    return w.toByteArray();
  }

  /**
   * A subclass of the holder (which declares the slot: the subclass inherits it) with {@code static int sum(Reader r)}:
   * the sum of the first {@code reads} of its inherited fields, each read once, named in the subclass.
   */
  private static byte[] reader(int reads) {
    ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
    w.visit(Opcodes.V11, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL, READER, null, HOLDER, null);
    sumOf(w, "sum", reads);
    w.visitEnd();
    return w.toByteArray();
  }

  /**
   * As {@link #reader}, with a second method {@code static int few(Reader r)} of ten reads, and a class initialiser that
   * fills a static {@code int[]} table of {@code entries} constants (the shape of a decoder's pattern table).
   */
  private static byte[] readerWithTable(int reads, int entries) {
    ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
    w.visit(Opcodes.V11, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL, READER, null, HOLDER, null);
    w.visitField(Opcodes.ACC_STATIC | Opcodes.ACC_FINAL, "TABLE", "[I", null, null).visitEnd();
    sumOf(w, "sum", reads);
    sumOf(w, "few", 10);
    MethodVisitor init = w.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
    init.visitCode();
    init.visitLdcInsn(entries);
    init.visitIntInsn(Opcodes.NEWARRAY, Opcodes.T_INT);
    for (int i = 0; i < entries; i++) {
      init.visitInsn(Opcodes.DUP);
      init.visitLdcInsn(i);
      init.visitLdcInsn(i * 7 + 3);
      init.visitInsn(Opcodes.IASTORE);
    }
    init.visitFieldInsn(Opcodes.PUTSTATIC, READER, "TABLE", "[I");
    init.visitInsn(Opcodes.RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();
    w.visitEnd();
    return w.toByteArray();
  }

  /** {@code static int name(Reader r)}: the sum of the first {@code reads} of its inherited fields. */
  private static void sumOf(ClassWriter w, String name, int reads) {
    MethodVisitor mv = w.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, name, "(L" + READER + ";)I", null,
        null);
    mv.visitCode();
    mv.visitInsn(Opcodes.ICONST_0);
    for (int i = 0; i < reads; i++) {
      mv.visitVarInsn(Opcodes.ALOAD, 0);
      mv.visitFieldInsn(Opcodes.GETFIELD, READER, "f" + i, "I");
      mv.visitInsn(Opcodes.IADD);
    }
    mv.visitInsn(Opcodes.IRETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
  }

  /** A loader that serves the holder's class file, so the instrumenter can resolve its fields. */
  private static final ClassLoader LOADER = new ClassLoader(HugeMethodsTest.class.getClassLoader()) {
    @Override
    public InputStream getResourceAsStream(String name) {
      return name.equals(HOLDER + ".class") ? new ByteArrayInputStream(holder()) : super.getResourceAsStream(name);
    }
  };

  private static byte[] instrument(byte[] classFile) {
    return new ClassInstrumenter(new SiteTable(), new FieldRegistry(), null, null, name -> name.startsWith("huge/"))
        .instrument(ClassKind.APPLICATION, LOADER, classFile).bytes();
  }

  /** How many linked slot loads the class has, and (second) how many read hooks. */
  private static int[] slotReadsAndHooks(byte[] classFile) {
    return slotReadsAndHooks(classFile, null);
  }

  private static int linkedSlotReads(byte[] classFile) {
    return slotReadsAndHooks(classFile)[0];
  }

  /** As {@link #slotReadsAndHooks(byte[])}, in one method ({@code name + descriptor}; null: all of them). */
  private static int[] slotReadsAndHooks(byte[] classFile, String method) {
    int[] count = new int[2];
    new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] ex) {
        if (method != null && !(name + descriptor).equals(method)) {
          return null;
        }
        return new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitInvokeDynamicInsn(String n, String d, Handle bootstrap, Object... args) {
            if (bootstrap.getName().equals("slotReader")) {
              count[0]++;
            }
          }

          @Override
          public void visitMethodInsn(int opcode, String owner, String n, String d, boolean itf) {
            if (n.equals("readField") || n.equals("readFields")) {
              count[1]++;
            }
          }
        };
      }
    }, 0);
    return count;
  }

  @Test
  void codeLengthsAreReadFromTheClassFile() {
    byte[] reader = reader(10);
    Map<String, Integer> lengths = HugeMethods.codeLengths(reader);
    assertEquals(Map.of("sum(L" + READER + ";)I", 2 + 10 * 5), lengths, "iconst_0, 10 × (aload_0, getfield, iadd), ireturn");
    assertTrue(HugeMethods.crossedMethods(reader, reader).isEmpty());
  }

  /**
   * A subclass's reads of its inherited fields get the linked slot load in front of their hooks — unless it would take
   * the method past the limit, and without it the method stays under: then the class is instrumented again without
   * it.
   */
  @Test
  void theLinkedSlotLoadsAreLeftOutWhereTheyWouldMakeAMethodHuge() {
    byte[] small = instrument(reader(100));
    int[] guarded = slotReadsAndHooks(small);
    assertTrue(guarded[1] > 0, "the reads are checked (two or three to a hook, see RedundantChecks)");
    assertEquals(guarded[1], guarded[0], "each read hook has its guard");

    int reads = 0;
    byte[] huge = null;
    // find a method size the guards would take past the limit: the plain hooks keep it under
    for (int n = 100; n <= FIELDS; n += 20) {
      byte[] out = instrument(reader(n));
      int length = HugeMethods.codeLengths(out).get("sum(L" + READER + ";)I");
      if (linkedSlotReads(out) == 0) {
        reads = n;
        huge = out;
        assertTrue(length <= HugeMethods.LIMIT, "instrumented again without them: " + length + " bytes");
        break;
      }
      assertTrue(length <= HugeMethods.LIMIT, n + " reads: " + length + " bytes");
    }
    assertTrue(huge != null, "some size between 100 and " + FIELDS + " reads crosses the limit with the guards");
    assertTrue(reads * 5 + 2 < HugeMethods.LIMIT, "the original method is far below the limit");
  }

  /**
   * Only the methods the linked slot loads take past the limit lose them: a class whose initialiser's table hooks take
   * {@code <clinit>} past it (Code128Reader's pattern table: 3,432 bytes, 11,703 instrumented) and whose other
   * method is huge with the guards keeps them in its small method; a class initialiser alone costs nobody its guards.
   */
  @Test
  void onlyTheMethodsTheGuardsTakePastTheLimitLoseThem() {
    String sum = "sum(L" + READER + ";)I";
    String few = "few(L" + READER + ";)I";
    int reads = 0;
    for (int n = 100; n <= FIELDS; n += 20) {
      if (linkedSlotReads(instrument(reader(n))) == 0) {
        reads = n;
        break;
      }
    }
    assertTrue(reads > 0, "some size crosses the limit with the guards");

    byte[] both = instrument(readerWithTable(reads, 1500));
    assertTrue(HugeMethods.codeLengths(both).get("<clinit>()V") > HugeMethods.LIMIT, "the table's hooks cross it");
    assertEquals(0, slotReadsAndHooks(both, sum)[0], "the huge method has none");
    assertTrue(HugeMethods.codeLengths(both).get(sum) <= HugeMethods.LIMIT);
    int[] small = slotReadsAndHooks(both, few);
    assertTrue(small[1] > 0 && small[0] == small[1], "the small method keeps a guard per hook: " + small[0] + "/"
        + small[1]);

    byte[] tableOnly = instrument(readerWithTable(100, 1500));
    assertTrue(HugeMethods.codeLengths(tableOnly).get("<clinit>()V") > HugeMethods.LIMIT);
    int[] summed = slotReadsAndHooks(tableOnly, sum);
    assertTrue(summed[1] > 0 && summed[0] == summed[1], "a huge class initialiser takes no guard away");
    assertTrue(HugeMethods.crossedMethods(readerWithTable(100, 1500), tableOnly).isEmpty());
  }
}
