package dev.racetriage.agent.instrument;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;

/**
 * HotSpot compiles no method whose bytecode is longer than {@link #LIMIT} bytes ({@code -XX:+DontCompileHugeMethods},
 * on by default, {@code HugeMethodLimit}): such a method runs in the interpreter for good, tens of times slower. An
 * instrumented method that crossed the limit only because of what the instrumenter added would make the program pay
 * that for checks alone, so the instrumenter leaves out what it can do without (the guards that need the linked slot
 * loads, see {@code EventInstrumenter#guardOwnedRead}) in the methods they take across — in those methods only.
 */
final class HugeMethods {
  /** HotSpot's {@code HugeMethodLimit}. */
  static final int LIMIT = 8000;

  private HugeMethods() {
  }

  /**
   * The methods ({@code name + descriptor}) of {@code original} no longer than {@link #LIMIT} that are longer in
   * {@code instrumented}; never the class initialiser, which runs once (interpreted or not, a table it fills costs
   * the same): a class whose static tables' hooks take {@code <clinit>} past the limit keeps its other methods' guards.
   */
  static Set<String> crossedMethods(byte[] original, byte[] instrumented) {
    if (instrumented.length <= LIMIT) {
      return Set.of(); // no method's code is longer than its class file: most classes stop here, unparsed
    }
    Map<String, Integer> before = codeLengths(original);
    Set<String> crossed = new HashSet<>();
    for (Map.Entry<String, Integer> after : codeLengths(instrumented).entrySet()) {
      Integer length = before.get(after.getKey());
      if (after.getValue() > LIMIT && (length == null || length <= LIMIT) && !after.getKey().startsWith("<clinit>")) {
        crossed.add(after.getKey());
      }
    }
    return crossed;
  }

  /** The length of each method's code, by name and descriptor (methods without code are left out). */
  static Map<String, Integer> codeLengths(byte[] classFile) {
    ClassReader r = new ClassReader(classFile);
    char[] buffer = new char[r.getMaxStringLength()];
    int u = r.header + 6; // access flags, this class, super class
    u += 2 + 2 * r.readUnsignedShort(u); // interfaces
    int fields = r.readUnsignedShort(u);
    u += 2;
    for (int i = 0; i < fields; i++) {
      u = skipAttributes(r, u + 6);
    }
    Map<String, Integer> lengths = new HashMap<>();
    int methods = r.readUnsignedShort(u);
    u += 2;
    for (int i = 0; i < methods; i++) {
      String key = r.readUTF8(u + 2, buffer) + r.readUTF8(u + 4, buffer);
      int attributes = r.readUnsignedShort(u + 6);
      u += 8;
      for (int a = 0; a < attributes; a++) {
        if ("Code".equals(r.readUTF8(u, buffer))) {
          lengths.put(key, r.readInt(u + 10)); // name, length, max_stack, max_locals, then code_length
        }
        u += 6 + r.readInt(u + 2);
      }
    }
    return lengths;
  }

  /** The offset after the attributes of a field or method whose attributes count is at {@code u}. */
  private static int skipAttributes(ClassReader r, int u) {
    int attributes = r.readUnsignedShort(u);
    u += 2;
    for (int a = 0; a < attributes; a++) {
      u += 6 + r.readInt(u + 2);
    }
    return u;
  }
}
