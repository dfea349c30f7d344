package dev.racetriage.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class FieldRegistryTest {
  /** An array's name is built once per field, not once per array stored in it (700,000 strings on jackson-core). */
  @Test
  void theArrayKeyOfAFieldIsOneStringWhateverTheNumberOfArrays() {
    FieldRegistry fields = new FieldRegistry();
    int first = fields.id("pkg/Parser", "_inputBuffer");
    for (int i = 0; i < 600; i++) { // past the cache's first capacity
      fields.id("pkg/Many", "f" + i);
    }
    int last = fields.id("pkg/Many", "f599");
    assertEquals("pkg.Parser._inputBuffer[]", fields.arrayKey(first));
    assertSame(fields.arrayKey(first), fields.arrayKey(first));
    assertEquals("pkg.Many.f599[]", fields.arrayKey(last));
    assertSame(fields.arrayKey(last), fields.arrayKey(last));
    assertEquals("?[]", fields.arrayKey(-1));
  }
}
