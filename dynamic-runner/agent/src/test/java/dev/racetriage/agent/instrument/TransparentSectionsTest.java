package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.racetriage.agent.instrument.fixtures.SectionShapes;
import java.io.InputStream;
import java.util.BitSet;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Which javac-compiled synchronized blocks are transparent (predict=true lets WCP relax them): straight-line field,
 * array and arithmetic code only; a call, a branch, an allocation or a nested monitor makes a block opaque.
 */
class TransparentSectionsTest {
  private static BitSet sections(String method) throws Exception {
    ClassNode node = new ClassNode();
    try (InputStream in = SectionShapes.class.getResourceAsStream("SectionShapes.class")) {
      new ClassReader(in.readAllBytes()).accept(node, 0);
    }
    for (MethodNode m : node.methods) {
      if (m.name.equals(method)) {
        return TransparentSections.find(m);
      }
    }
    throw new AssertionError("no method " + method);
  }

  private static BitSet of(int... ordinals) {
    BitSet set = new BitSet();
    for (int i : ordinals) {
      set.set(i);
    }
    return set;
  }

  @Test
  void straightLineBlocksAreTransparent() throws Exception {
    assertEquals(of(0), sections("empty"));
    assertEquals(of(0), sections("fieldsArraysAndArithmetic"));
    assertEquals(of(0), sections("returnsInside"), "javac returns after the monitorexit: the section only reads");
  }

  @Test
  void callsBranchesAllocationsAndNestedMonitorsAreOpaque() throws Exception {
    assertEquals(of(), sections("callsIntoTheJdk"));
    assertEquals(of(), sections("branches"));
    assertEquals(of(), sections("allocates"));
    assertEquals(of(1), sections("nested"), "the outer block holds a monitorenter; the inner one is straight-line");
  }

  @Test
  void eachBlockOfAMethodIsDecidedOnItsOwn() throws Exception {
    assertEquals(of(0, 1), sections("emptyThenCall"), "the call between the blocks is outside both");
  }
}
