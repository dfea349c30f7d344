package dev.racetriage.agent.instrument;

import dev.racetriage.agent.detect.SiteTable;
import dev.racetriage.agent.runtime.FieldRegistry;
import java.util.List;

/**
 * An instrumented class file with placeholders where field and site ids go: {@code patchOffsets[i]} is the offset of
 * a {@code CONSTANT_Integer} value that stands for {@code symbols.get(patchSymbols[i])}. The same template binds to
 * any run's id tables, which is what the class cache stores.
 */
record IdTemplate(byte[] bytes, List<IdSymbol> symbols, int[] patchOffsets, int[] patchSymbols) {

  /** The class file for this run: each placeholder replaced by the id its symbol has (or now gets) here. */
  byte[] bind(SiteTable sites, FieldRegistry fields) {
    int[] ids = new int[symbols.size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = symbols.get(i).bind(sites, fields);
    }
    byte[] out = bytes.clone();
    for (int i = 0; i < patchOffsets.length; i++) {
      ConstantPool.putU4(out, patchOffsets[i], ids[patchSymbols[i]]);
    }
    return out;
  }
}
