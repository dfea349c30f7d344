package dev.racetriage.lsp.findings;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A field's, an array's and a container's key name the same declaration: the field that holds them. */
class FieldKeysTest {
  @Test
  void arraysAndContainersAreFoundAtTheFieldThatHoldsThem() {
    for (String key : new String[] {"pkg.Outer$Inner.map", "pkg.Outer$Inner.map[]", "pkg.Outer$Inner.map{}"}) {
      assertEquals("map", FieldKeys.fieldName(key), key);
      assertEquals("pkg.Outer$Inner", FieldKeys.owner(key), key);
    }
  }
}
