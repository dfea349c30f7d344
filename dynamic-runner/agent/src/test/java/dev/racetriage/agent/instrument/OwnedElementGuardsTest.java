package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.junit.jupiter.api.Test;

/**
 * Which element loads and stores get the owned-element guards: those outside every loop (a getter's read, a lambda's
 * update of a one-element array), by ordinal among the method's array accesses — not one that a backward jump spans,
 * whatever kind of loop it is.
 */
class OwnedElementGuardsTest {
  /** The shapes: a getter, a counted loop over an indirect index, a while loop between two loads, a do-while. */
  @SuppressWarnings("unused")
  static final class Shapes {
    private final int[] bits = new int[4];

    boolean get(int i) {
      return bits[i] != 0;
    }

    int sum(int[] idx) {
      int s = 0;
      for (int i = 0; i < idx.length; i++) {
        s += bits[idx[i]];
      }
      return s;
    }

    int around(int[][] rows) {
      int[] r = rows[0];
      int s = 0;
      while (s < 10) {
        s += r[s];
      }
      return s + r[0];
    }

    int store(int[] a, int i) {
      a[i] = 1;
      int s;
      do {
        s = a[i];
        i++;
      } while (s == 0 && i < a.length);
      return s + a[0];
    }

    void count(int[] counters, int[] pixels) {
      counters[0] = 0;
      for (int p : pixels) {
        if (p != 0) {
          counters[p & 3] = 1;
        }
      }
    }
  }

  @Test
  void accessesOutsideLoopsAreGuardedAndAccessesALoopSpansAreNot() throws IOException {
    Map<String, BitSet> guarded = new HashMap<>();
    for (MethodNode m : node(Shapes.class).methods) {
      guarded.put(m.name, InstrumentingClassVisitor.accessesOutsideLoops(m));
    }
    assertEquals(bits(0), guarded.get("get"));
    assertEquals(bits(), guarded.get("sum"), "both loads are in the loop");
    assertEquals(bits(0, 2), guarded.get("around"), "rows[0] and r[0], not r[s]");
    assertEquals(bits(0, 2), guarded.get("store"), "0 is a store, 1 is in the do-while, 2 is a[0] after it");
    assertEquals(bits(0), guarded.get("count"), "the store before the loop, not the one in it");
  }

  private static BitSet bits(int... set) {
    BitSet b = new BitSet();
    for (int i : set) {
      b.set(i);
    }
    return b;
  }

  private static ClassNode node(Class<?> type) throws IOException {
    String resource = type.getName().substring(type.getPackageName().length() + 1) + ".class";
    try (InputStream in = type.getResourceAsStream(resource)) {
      ClassNode node = new ClassNode();
      new ClassReader(in.readAllBytes()).accept(node, 0);
      return node;
    }
  }
}
