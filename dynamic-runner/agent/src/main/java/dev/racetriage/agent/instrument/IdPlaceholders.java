package dev.racetriage.agent.instrument;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The placeholder ints the instrumenter pushes (with {@code LDC}) for field and site ids while transforming one
 * class: {@code tag << 24 | n} for the n-th distinct {@link IdSymbol}, where the tag byte is one no
 * {@code CONSTANT_Integer} of the original class file starts with. After writing the class, the only integer constants
 * with that tag are the placeholders, each one constant pool entry (ASM shares equal constants), so binding a class
 * to a run's ids is overwriting those entries' 4 bytes — no ASM, no change of size or layout.
 */
final class IdPlaceholders {
  /** More distinct symbols than this in one class and the class is not cached (placeholders must fit 24 bits). */
  static final int MAX_SYMBOLS = 1 << 24;

  private final int tag;
  private final List<IdSymbol> symbols = new ArrayList<>();
  private final Map<IdSymbol, Integer> index = new HashMap<>();

  private IdPlaceholders(int tag) {
    this.tag = tag;
  }

  /** Placeholders for a class whose original bytes are {@code classFile}. */
  static IdPlaceholders forClass(byte[] classFile) {
    boolean[] used = new boolean[256];
    for (int offset : ConstantPool.integerOffsets(classFile)) {
      used[classFile[offset] & 0xFF] = true;
    }
    // tags 0x20..0x7E only: positive values of at least 2^29, which no hook mistakes for a small id
    for (int k = 0; k < 0x5F; k++) {
      int t = 0x20 + (0x3A + k) % 0x5F; // 0x5A first
      if (!used[t]) {
        return new IdPlaceholders(t);
      }
    }
    throw new IllegalArgumentException("no free placeholder tag: the class uses integer constants of every tag");
  }

  int field(String declaringInternal, String name) {
    return placeholder(IdSymbol.field(declaringInternal, name));
  }

  int site(String className, String method, String file, int line) {
    return placeholder(IdSymbol.site(className, method, file, line));
  }

  int guard(String className, String method, int ordinal) {
    return placeholder(IdSymbol.guard(className, method, ordinal));
  }

  private int placeholder(IdSymbol symbol) {
    Integer known = index.get(symbol);
    if (known == null) {
      known = symbols.size();
      if (known >= MAX_SYMBOLS) {
        throw new IllegalStateException("more than " + MAX_SYMBOLS + " field and site ids in one class");
      }
      symbols.add(symbol);
      index.put(symbol, known);
    }
    return tag << 24 | known;
  }

  /** The template for the instrumented bytes: where each placeholder ended up in the constant pool. */
  IdTemplate template(byte[] instrumented) {
    int[] offsets = ConstantPool.integerOffsets(instrumented);
    int[] patchOffsets = new int[offsets.length];
    int[] patchSymbols = new int[offsets.length];
    int patches = 0;
    for (int offset : offsets) {
      int value = ConstantPool.u4(instrumented, offset);
      if (value >>> 24 == tag) {
        int n = value & 0xFFFFFF;
        if (n >= symbols.size()) {
          throw new IllegalStateException("integer constant " + value + " looks like a placeholder but is none");
        }
        patchOffsets[patches] = offset;
        patchSymbols[patches++] = n;
      }
    }
    return new IdTemplate(instrumented, List.copyOf(symbols), java.util.Arrays.copyOf(patchOffsets, patches),
        java.util.Arrays.copyOf(patchSymbols, patches));
  }
}
