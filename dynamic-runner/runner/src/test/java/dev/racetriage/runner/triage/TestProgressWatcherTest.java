package dev.racetriage.runner.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The detect phase's progress line, read from the launcher's results files as the JVMs write them. */
class TestProgressWatcherTest {
  @TempDir Path dir;

  private static String started(String cls, String method) {
    return "{\"event\":\"started\",\"kind\":\"test\",\"class\":\"" + cls + "\",\"method\":\"" + method + "\"}\n";
  }

  private static String finished(String cls, String method, long millis) {
    return "{\"event\":\"finished\",\"kind\":\"test\",\"class\":\"" + cls + "\",\"method\":\"" + method
        + "\",\"status\":\"passed\",\"millis\":" + millis + "}\n";
  }

  /**
   * With {@code --detect-runs 1} (and when repeats fall back) the detection JVMs write under {@code single/}, a JVM
   * restarted after a hung test writes a new file, and a test finished in two JVMs counts once. Before, that
   * subdirectory was not read and commons-lang's 57,444-test detection said "0/57444" for its whole run.
   */
  @Test
  void followsTheFreshJvmsOfASingleRunAndCountsEachTestOnce() throws Exception {
    List<String> lines = new CopyOnWriteArrayList<>();
    List<Integer> done = new CopyOnWriteArrayList<>();
    TriageProgress progress = recording(lines, done);
    Path single = Files.createDirectories(dir.resolve(TestProgressWatcher.FRESH_JVMS));
    Files.writeString(single.resolve("results-1.jsonl"), started("C", "a") + finished("C", "a", 300)
        + started("C", "b") + finished("C", "b", 400) + started("C", "c"));
    Files.writeString(single.resolve("results-2.jsonl"), started("C", "c") + finished("C", "c", 5000));
    Files.writeString(dir.resolve("results.jsonl"), started("C", "a") + finished("C", "a", 300));
    try (TestProgressWatcher watcher = new TestProgressWatcher(dir, 3, Map.of("C#a", 100L, "C#b", 200L, "C#c", 1000L),
        progress, "module m", System::nanoTime, false)) {
      watcher.poll();
      assertFalse(lines.isEmpty(), "no progress line");
      assertEquals("3/3 module m tests, 4.4x baseline so far, slowest C#c (1.0 s -> 5.0 s)", lines.get(lines.size() - 1));
      int before = lines.size();
      watcher.poll(); // nothing new: no new line
      assertEquals(before, lines.size(), lines::toString);
      assertEquals(3, done.get(done.size() - 1));
    }
  }

  /** A test that runs long is named, with how long it has run, once a line has been quiet for 30 s. */
  @Test
  void aLongRunningTestIsNamedAfterAQuietPeriod() throws Exception {
    List<String> lines = new CopyOnWriteArrayList<>();
    TriageProgress progress = recording(lines, new CopyOnWriteArrayList<>());
    long[] now = {1_000_000_000L};
    Path results = dir.resolve("results-1.jsonl");
    Files.writeString(results, started("C", "a") + finished("C", "a", 300) + started("C", "slow"));
    try (TestProgressWatcher watcher = new TestProgressWatcher(dir, 2, Map.of("C#a", 100L, "C#slow", 1000L), progress,
        "module m", () -> now[0], false)) {
      watcher.poll();
      assertEquals(List.of("1/2 module m tests, 3.0x baseline so far"), lines);
      now[0] += 12_000_000_000L;
      watcher.poll(); // running 12 s, but a line was written 12 s ago
      assertEquals(1, lines.size(), lines::toString);
      now[0] += 20_000_000_000L;
      watcher.poll();
      assertEquals("1/2 module m tests, 3.0x baseline so far, running C#slow for 32 s", lines.get(lines.size() - 1));
    }
  }

  /** Progress that records each step as "done/total detail" in {@code lines}, and its done count in {@code done}. */
  private static TriageProgress recording(List<String> lines, List<Integer> done) {
    return new TriageProgress() {
      @Override
      public void phase(String name, String detail) {}

      @Override
      public void step(int d, int total, String detail) {
        done.add(d);
        lines.add(d + "/" + total + " " + detail);
      }
    };
  }
}
