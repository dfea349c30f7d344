package dev.racetriage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FieldKeyTest {

  @Test
  void parsesNestedClassField() {
    FieldKey key = FieldKey.parse("pkg.Outer$Inner.field");
    assertEquals("pkg.Outer$Inner", key.className());
    assertEquals("field", key.member());
    assertFalse(key.array());
    assertEquals("Outer$Inner", key.simpleClassName());
    assertEquals("pkg.Outer$Inner.field", key.toString());
  }

  @Test
  void parsesArrayKeyAndRoundTrips() {
    FieldKey key = FieldKey.parse("pkg.Cls.slots[]");
    assertTrue(key.array());
    assertEquals("slots", key.member());
    assertEquals("pkg.Cls.slots[]", key.toString());
    assertEquals(key, FieldKey.parse(key.toString()));
  }

  @Test
  void acceptsTheAgentsAllocationSiteKeysForArraysNoFieldHolds() {
    FieldKey key = FieldKey.parse("pkg.Cls.<init>()[]");
    assertEquals("pkg.Cls", key.className());
    assertEquals("<init>()", key.member());
    assertTrue(key.array());
    assertEquals("pkg.Cls.run()[]", FieldKey.parse("pkg.Cls.run()[]").toString());
  }

  @Test
  void defaultPackageClassIsAccepted() {
    assertEquals("Counter", FieldKey.parse("Counter.count").className());
  }

  @Test
  void rejectsTextThatIsNotAFieldKey() {
    for (String bad : new String[] {"count", ".count", "pkg.Cls.", "pkg..Cls.f", "1pkg.Cls.f", "pkg.Cls.f g", ""}) {
      IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> FieldKey.parse(bad), bad);
      assertTrue(error.getMessage().contains("field key"), error.getMessage());
    }
  }
}
