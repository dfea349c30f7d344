package dev.racetriage.runner.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CappedLogTest {
  @TempDir Path dir;

  @Test
  void shortOutputIsKeptWhole() throws Exception {
    Path log = dir.resolve("short.log");
    new CappedLog(log, 100, 100).copyFrom(new ByteArrayInputStream("hello\nworld\n".getBytes(StandardCharsets.UTF_8)));
    assertEquals("hello\nworld\n", Files.readString(log));
  }

  @Test
  void longOutputKeepsHeadAndTailWithAMarker() throws Exception {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 1000; i++) text.append(String.format("line %04d%n", i));
    Path log = dir.resolve("long.log");
    CappedLog capped = new CappedLog(log, 50, 30);
    capped.copyFrom(new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.UTF_8)));
    String kept = Files.readString(log);
    assertTrue(kept.startsWith(text.substring(0, 50)), kept);
    assertTrue(kept.endsWith(text.substring(text.length() - 30)), kept);
    assertTrue(kept.contains("[racetriage: " + (text.length() - 80) + " bytes of output left out here"), kept);
    assertEquals(text.length() - 80, capped.dropped());
  }

  @Test
  void aProcessPrintingFiftyMegabytesLeavesAboutTwo() throws Exception {
    // a real child process, as a chatty test JVM would be
    Path log = dir.resolve("chatty.log");
    ExternalCommand.Outcome outcome = new ExternalCommand(
        List.of("sh", "-c", "head -c 52428800 /dev/zero | tr '\\0' 'x'; echo; echo the-end"), dir, Map.of())
        .run(Duration.ofMinutes(2), log);
    assertEquals(0, outcome.exitCode());
    long size = Files.size(log);
    assertTrue(size < CappedLog.DEFAULT_HEAD + CappedLog.DEFAULT_TAIL + 1024, "log of " + size + " bytes");
    assertTrue(outcome.tail(1).contains("the-end"), outcome.tail(3));
  }
}
