package dev.racetriage.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The slot offset looked up by field id ({@link ThreadShadow#shadowOfField}) finds exactly the shadow the canonical
 * lookup ({@link ShadowMemory#of}) finds, whichever classes one field's receivers alternate between: a subclass (same
 * slot), a subclass declaring a slot of its own (as when the class between them is left uninstrumented: the most
 * derived one holds the shadow), and a class without a slot (the table).
 */
class FieldSlotLookupTest {
  /** The instrumenter's slot, declared by hand (ShadowSlots finds it by name). */
  static class Base {
    @SuppressWarnings("unused")
    private transient Object $racetriage$shadow;
    int value;
  }

  static final class Sub extends Base {
  }

  static final class SubWithOwnSlot extends Base {
    @SuppressWarnings("unused")
    private transient Object $racetriage$shadow;
  }

  static final class NoSlot {
  }

  @Test
  void alternatingReceiversOfOneFieldEachGetTheirOwnShadow() {
    assertTrue(ShadowSlots.available(), "the tests run with jdk.internal.misc exported (pom argLine)");
    FieldRegistry fields = new FieldRegistry();
    int field = fields.id("dev/racetriage/agent/runtime/FieldSlotLookupTest$Base", "value");
    ShadowMemory memory = new ShadowMemory(fields);
    ThreadShadow thread = ThreadShadow.current();
    Object[] receivers = {new Base(), new Sub(), new SubWithOwnSlot(), new NoSlot(), new Sub(), new Base()};
    ObjectShadow[] first = new ObjectShadow[receivers.length];
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < receivers.length; i++) {
        ObjectShadow s = thread.shadowOfField(receivers[i], field, memory);
        assertNotNull(s);
        assertSame(memory.of(receivers[i]), s, "receiver " + i + " in round " + round);
        if (round == 0) {
          first[i] = s;
        }
        assertSame(first[i], s);
      }
    }
    for (int i = 0; i < receivers.length; i++) {
      for (int j = i + 1; j < receivers.length; j++) {
        assertNotSame(first[i], first[j], "objects " + i + " and " + j + " share a shadow");
      }
    }
    // the most derived slot holds it: the canonical lookup, which monitors use, agrees (checked above) and the
    // base class's slot of that object stays empty
    assertSame(memory.peek(receivers[2]), first[2]);
  }
}
