package dev.racetriage.agent.instrument;

import java.util.HashMap;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The write sites of a class that get the owned-write guard ({@code Hooks.ownedRewrite}): a {@code putfield} of one
 * of the class's own non-final, non-volatile instance fields, naming the class itself, outside its constructors and
 * class initialiser — an iterator's {@code next()}, a value object's {@code set(…)}. Each distinct site (method name
 * and line, as the instrumenter's site ids; one field) gets a bit of the object's stamp, up to 64 per class; a field's
 * mask is the bits of all its guarded sites, which a site change of its record drops but for the new site's own.
 * The bits are the class's own: only a class that declares the shadow slot itself gets guards, so no other class's
 * numbering shares an object's stamp (a subclass's writes keep the hook alone).
 */
final class GuardedWrites {
  static final GuardedWrites NONE = new GuardedWrites(Map.of(), Map.of());
  static final int MAX_SITES = 64;

  private final Map<String, Integer> bits;
  private final Map<String, Long> masks;

  private GuardedWrites(Map<String, Integer> bits, Map<String, Long> masks) {
    this.bits = bits;
    this.masks = masks;
  }

  /** The site's bit (a single set bit), or 0 if the write at that method and line of that field has no guard. */
  long bit(String method, int line, String field) {
    Integer b = bits.get(key(method, line, field));
    return b == null ? 0L : 1L << b;
  }

  /** The bits of every guarded site of {@code field}. */
  long mask(String field) {
    Long m = masks.get(field);
    return m == null ? 0L : m;
  }

  int size() {
    return bits.size();
  }

  private static String key(String method, int line, String field) {
    return method + '\u0000' + line + '\u0000' + field;
  }

  /** The guarded sites of the class {@code reader} holds (lines tracked as the instrumenter tracks them). */
  static GuardedWrites of(ClassReader reader) {
    if ((reader.getAccess() & (Opcodes.ACC_INTERFACE | Opcodes.ACC_ANNOTATION)) != 0) {
      return NONE;
    }
    String self = reader.getClassName();
    Map<String, Boolean> candidates = new HashMap<>(); // the class's own fields: name -> may be guarded
    Map<String, Integer> bits = new HashMap<>();
    Map<String, Long> masks = new HashMap<>();
    java.util.List<String[]> writes = new java.util.ArrayList<>(); // (site key, field) in encounter order
    reader.accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
        candidates.put(name, (access & (Opcodes.ACC_STATIC | Opcodes.ACC_FINAL | Opcodes.ACC_VOLATILE)) == 0);
        return null;
      }

      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                       String[] exceptions) {
        if (name.startsWith("<")) {
          return null; // constructors write fresh objects (and may write before super()); <clinit> has no receiver
        }
        return new MethodVisitor(Opcodes.ASM9) {
          private int line = -1;

          @Override
          public void visitLineNumber(int lineNumber, Label start) {
            line = lineNumber;
          }

          @Override
          public void visitFieldInsn(int opcode, String owner, String field, String fieldDescriptor) {
            if (opcode == Opcodes.PUTFIELD && owner.equals(self)) {
              writes.add(new String[] {key(name, line, field), field});
            }
          }
        };
      }
    }, ClassReader.SKIP_FRAMES);
    for (String[] w : writes) {
      if (!Boolean.TRUE.equals(candidates.get(w[1]))) {
        continue; // inherited, static, final or volatile
      }
      if (bits.containsKey(w[0]) || bits.size() == MAX_SITES) {
        continue;
      }
      int b = bits.size();
      bits.put(w[0], b);
      masks.merge(w[1], 1L << b, (x, y) -> x | y);
    }
    return bits.isEmpty() ? NONE : new GuardedWrites(Map.copyOf(bits), Map.copyOf(masks));
  }
}
