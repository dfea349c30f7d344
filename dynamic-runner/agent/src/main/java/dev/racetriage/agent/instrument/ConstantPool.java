package dev.racetriage.agent.instrument;

/**
 * Reads the constant pool of a class file without ASM: where its {@code CONSTANT_Integer} entries are. The id
 * placeholders the instrumenter emits are such entries, and patching them is all a cache hit does to a class file
 * (so a run whose classes all come from the cache never loads or runs ASM).
 */
final class ConstantPool {
  private ConstantPool() {
  }

  /**
   * The byte offsets of the 4-byte values of every {@code CONSTANT_Integer} entry, in pool order.
   *
   * @throws IllegalArgumentException if the bytes are not a well-formed class file header and constant pool
   */
  static int[] integerOffsets(byte[] classFile) {
    if (classFile.length < 10 || u4(classFile, 0) != 0xCAFEBABE) {
      throw new IllegalArgumentException("not a class file");
    }
    int count = u2(classFile, 8);
    int[] found = new int[16];
    int size = 0;
    int at = 10;
    for (int i = 1; i < count; i++) {
      if (at >= classFile.length) {
        throw new IllegalArgumentException("constant pool runs past the end of the class file");
      }
      int tag = classFile[at] & 0xFF;
      switch (tag) {
        case 1 -> at += 3 + u2(classFile, at + 1); // Utf8
        case 3 -> { // Integer
          if (size == found.length) {
            found = java.util.Arrays.copyOf(found, size * 2);
          }
          found[size++] = at + 1;
          at += 5;
        }
        case 4, 9, 10, 11, 12, 17, 18 -> at += 5; // Float, refs, NameAndType, (Invoke)Dynamic
        case 5, 6 -> { // Long, Double: two slots
          at += 9;
          i++;
        }
        case 7, 8, 16, 19, 20 -> at += 3; // Class, String, MethodType, Module, Package
        case 15 -> at += 4; // MethodHandle
        default -> throw new IllegalArgumentException("unknown constant pool tag " + tag + " at offset " + at);
      }
    }
    if (at > classFile.length) {
      throw new IllegalArgumentException("constant pool runs past the end of the class file");
    }
    return java.util.Arrays.copyOf(found, size);
  }

  static int u2(byte[] b, int at) {
    return ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
  }

  static int u4(byte[] b, int at) {
    return ((b[at] & 0xFF) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
  }

  static void putU4(byte[] b, int at, int value) {
    b[at] = (byte) (value >>> 24);
    b[at + 1] = (byte) (value >>> 16);
    b[at + 2] = (byte) (value >>> 8);
    b[at + 3] = (byte) value;
  }
}
