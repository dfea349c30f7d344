package dev.racetriage.agent.instrument;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The methods of a class that a counted loop may call and still have its element checks moved to its exits
 * ({@link CountedLoops}): static or private methods (a call to them runs exactly that code) whose bodies cannot
 * synchronise, run code the agent does not see, or change what the loop reads — only locals, arithmetic, branches,
 * array loads, reads of the class's own non-volatile fields, primitive arrays, {@linkplain #pureMath pure Math},
 * {@linkplain #pureString String queries} and calls to other such methods of the class. No field or array store (the
 * loop's array, read from a field, must stay the one it read), no object allocation, no monitor, no athrow, no
 * invokedynamic, no class constant or cast. A parser's {@code isInternalKey(keys[i])}: {@code key.length() > 1 &&
 * key.charAt(0) == '/'}.
 *
 * <p>The callee's own accesses keep their hooks; a hook changes no clock, so the loop's range checks at its exits see
 * the clock every element check would have seen.
 */
final class QuietCallees {
  private QuietCallees() {
  }

  /** The quiet callees of the class {@code reader} holds, as {@code name + descriptor}. */
  static Set<String> of(ClassReader reader) {
    String self = reader.getClassName();
    Map<String, Integer> fieldAccess = new HashMap<>();
    Map<String, Scan> scans = new HashMap<>();
    reader.accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public org.objectweb.asm.FieldVisitor visitField(int access, String name, String descriptor, String signature,
                                                       Object value) {
        fieldAccess.put(name, access);
        return null;
      }

      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                       String[] exceptions) {
        boolean direct = (access & (Opcodes.ACC_STATIC | Opcodes.ACC_PRIVATE)) != 0
            && (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_SYNCHRONIZED)) == 0
            && !name.startsWith("<");
        if (!direct) {
          return null;
        }
        Scan scan = new Scan(self);
        scans.put(name + descriptor, scan);
        return scan;
      }
    }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    // own fields: only non-volatile ones may be read
    Set<String> quiet = new HashSet<>();
    for (Map.Entry<String, Scan> e : scans.entrySet()) {
      Scan scan = e.getValue();
      if (scan.quiet && scan.ownFields.stream().allMatch(f -> {
        Integer access = fieldAccess.get(f);
        return access != null && (access & Opcodes.ACC_VOLATILE) == 0;
      })) {
        quiet.add(e.getKey());
      }
    }
    // calls to the class's own methods: quiet only if the callee is (a fixpoint: drop until nothing changes)
    boolean changed = true;
    while (changed) {
      changed = false;
      for (java.util.Iterator<String> it = quiet.iterator(); it.hasNext(); ) {
        if (!quiet.containsAll(scans.get(it.next()).ownCalls)) {
          it.remove();
          changed = true;
        }
      }
    }
    return Set.copyOf(quiet);
  }

  /**
   * A static method of {@code java.lang.Math} or {@code StrictMath} other than {@code random}, or one of the bit and
   * comparison operations of {@code Integer}, {@code Long}, {@code Float} and {@code Double} on primitives
   * ({@code Integer.rotateLeft}, {@code Long.numberOfLeadingZeros}, {@code Integer.reverse},
   * {@code Float.floatToRawIntBits}…, {@link #PURE_BITS}): arithmetic on its arguments that neither synchronises nor
   * touches the heap ({@code random} draws from a shared generator, an atomic update). The bit operations' descriptor
   * must name primitives only (no boxing, no string). Such a call may throw (the {@code *Exact} methods, a division by
   * zero), as an array access may: the exception leaves the loop through the same paths. These classes are initialised
   * before any application code runs.
   */
  static boolean pureMath(int opcode, String owner, String name, String descriptor) {
    if (opcode != Opcodes.INVOKESTATIC) {
      return false;
    }
    if (owner.equals("java/lang/Math") || owner.equals("java/lang/StrictMath")) {
      return !name.equals("random");
    }
    return PURE_BITS.contains(owner.substring(owner.lastIndexOf('/') + 1) + "." + name)
        && owner.startsWith("java/lang/") && descriptor.indexOf('L') < 0 && descriptor.indexOf('[') < 0;
  }

  /** The static primitive operations of the boxes that {@link #pureMath} counts as arithmetic. */
  private static final Set<String> PURE_BITS = pureBits();

  private static Set<String> pureBits() {
    java.util.HashSet<String> ops = new java.util.HashSet<>();
    for (String box : new String[] {"Integer", "Long"}) {
      for (String op : new String[] {"bitCount", "reverse", "reverseBytes", "rotateLeft", "rotateRight",
          "numberOfLeadingZeros", "numberOfTrailingZeros", "highestOneBit", "lowestOneBit", "signum", "compare",
          "compareUnsigned", "divideUnsigned", "remainderUnsigned", "hashCode", "min", "max", "sum"}) {
        ops.add(box + "." + op);
      }
    }
    ops.add("Integer.toUnsignedLong");
    for (String op : new String[] {"floatToRawIntBits", "floatToIntBits", "intBitsToFloat", "isNaN", "isInfinite",
        "isFinite", "compare", "hashCode", "min", "max", "sum"}) {
      ops.add("Float." + op);
    }
    for (String op : new String[] {"doubleToRawLongBits", "doubleToLongBits", "longBitsToDouble", "isNaN",
        "isInfinite", "isFinite", "compare", "hashCode", "min", "max", "sum"}) {
      ops.add("Double." + op);
    }
    return Set.copyOf(ops);
  }

  /**
   * A query of a {@code java.lang.String} (a final class: the call runs the JDK's code) that reads the string and its
   * arguments only — no allocation, no {@code CharSequence} argument whose own code would run, nothing shared:
   * {@code length}, {@code charAt}, {@code equals}, {@code indexOf}… ({@code hashCode} caches the hash in the string,
   * a JDK field the agent does not check). It may throw ({@code charAt} out of range), as an array access may.
   */
  static boolean pureString(int opcode, String owner, String name) {
    return opcode == Opcodes.INVOKEVIRTUAL && owner.equals("java/lang/String") && switch (name) {
      case "length", "charAt", "isEmpty", "equals", "equalsIgnoreCase", "hashCode", "codePointAt", "compareTo",
           "compareToIgnoreCase", "startsWith", "endsWith", "indexOf", "lastIndexOf", "regionMatches" -> true;
      default -> false;
    };
  }

  private static final class Scan extends MethodVisitor {
    private final String self;
    boolean quiet = true;
    final Set<String> ownFields = new HashSet<>();
    final Set<String> ownCalls = new HashSet<>();

    Scan(String self) {
      super(Opcodes.ASM9);
      this.self = self;
    }

    @Override
    public void visitInsn(int opcode) {
      if (opcode == Opcodes.ATHROW || opcode == Opcodes.MONITORENTER || opcode == Opcodes.MONITOREXIT
          || (opcode >= Opcodes.IASTORE && opcode <= Opcodes.SASTORE)) {
        quiet = false;
      }
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
      // bipush, sipush, newarray of a primitive type: quiet
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
      quiet = false; // new, anewarray, checkcast, instanceof: may allocate, load or initialise another class
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
      if (!owner.equals(self) || opcode == Opcodes.PUTFIELD || opcode == Opcodes.PUTSTATIC) {
        quiet = false;
      } else {
        ownFields.add(name);
      }
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
      if (pureMath(opcode, owner, name, descriptor) || pureString(opcode, owner, name)) {
        return;
      }
      if (owner.equals(self) && !isInterface
          && (opcode == Opcodes.INVOKESTATIC || opcode == Opcodes.INVOKESPECIAL || opcode == Opcodes.INVOKEVIRTUAL)) {
        ownCalls.add(name + descriptor); // quiet if that method is a quiet callee (static or private) itself
        return;
      }
      quiet = false;
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String descriptor, Handle handle, Object... arguments) {
      quiet = false;
    }

    @Override
    public void visitLdcInsn(Object value) {
      if (!(value instanceof Number) && !(value instanceof String)) {
        quiet = false; // a class, method type or handle, or a dynamic constant
      }
    }

    @Override
    public void visitMultiANewArrayInsn(String descriptor, int dimensions) {
      quiet = false;
    }

    @Override
    public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
      // a handler inside the callee: its exceptions are its own business (it stores nothing and calls nothing)
    }
  }
}
