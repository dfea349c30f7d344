package dev.racetriage.runner.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StaticScanTest {
  /** JDT's "wrongly tagged" lines are counted and dropped; every other line (progress, a partial last line) passes. */
  @Test
  void jdtsMissingTypeLinesAreDroppedAndCountedAndOthersPassThrough() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    StaticScan.QuietLines quiet = new StaticScan.QuietLines(new PrintStream(bytes, true, StandardCharsets.UTF_8),
        line -> line.contains("is wrongly tagged as containing missing types"));
    PrintStream err = new PrintStream(quiet, true, StandardCharsets.UTF_8);
    err.println("detect: 3/10");
    err.println("The method public T fromJson(java.lang.String) is wrongly tagged as containing missing types");
    err.println("The method public static Builder<K,V> builder()  is wrongly tagged as containing missing types");
    err.print("no newline yet");
    quiet.flush();

    assertEquals("detect: 3/10" + System.lineSeparator() + "no newline yet", bytes.toString(StandardCharsets.UTF_8));
    assertEquals(2, quiet.dropped());
  }
}
