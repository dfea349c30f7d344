package dev.racetriage.prefilter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.prefilter.parse.Classpath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The editor's entry point: one changed file re-analysed from its unsaved text, the rest kept. */
class IncrementalUpdateTest {

  @TempDir Path dir;
  private Prefilter prefilter;
  private Analysis initial;
  private Path driver;
  private Path inconsistent;

  @BeforeEach
  void scanProject() {
    Path project = Fixtures.project(dir, "SharedStats", "StatsDriver", "InconsistentSyncBad", "LossyCounterBad");
    prefilter = Prefilter.open(project, Classpath.given(List.of()));
    initial = prefilter.scan();
    driver = Fixtures.fileOf(project, "StatsDriver");
    inconsistent = Fixtures.fileOf(project, "InconsistentSyncBad");
  }

  @Test
  void fixingTheRaceInTheEditorRemovesTheCandidateAndLeavesTheOthers() throws Exception {
    Expect.candidate(initial, "fixtures.InconsistentSyncBad.name");
    String fixed = Files.readString(inconsistent).replace("public void set(", "public synchronized void set(");
    Analysis after = prefilter.update(inconsistent, fixed);
    Expect.noCandidate(after, "fixtures.InconsistentSyncBad.name");
    assertEquals(initial.candidate("fixtures.LossyCounterBad.count"), after.candidate("fixtures.LossyCounterBad.count"));
    assertEquals(initial.files(), after.files());
  }

  @Test
  void changingTheCallerInAnotherFileChangesTheCalleesCandidate() throws Exception {
    Expect.candidate(initial, "fixtures.SharedStats.total");
    String sequential = Files.readString(driver).replace("pool.submit(() -> stats.record(value));",
        "stats.record(value);");
    Expect.noCandidate(prefilter.update(driver, sequential), "fixtures.SharedStats.total");
    Analysis restored = prefilter.update(driver, Files.readString(driver));
    assertEquals(initial.candidate("fixtures.SharedStats.total"), restored.candidate("fixtures.SharedStats.total"));
  }

  @Test
  void halfTypedTextNeverCrashesAndKeepsWhatItCanRecover() throws Exception {
    String text = Files.readString(inconsistent);
    for (int cut = text.length(); cut > 0; cut -= 97) {
      Analysis partial = prefilter.update(inconsistent, text.substring(0, cut));
      Expect.candidate(partial, "fixtures.LossyCounterBad.count");
    }
    assertEquals(initial.candidates(), prefilter.update(inconsistent, text).candidates());
  }

  @Test
  void aNewFileIsAddedAndADeletedOneForgotten() {
    Path created = driver.resolveSibling("LateWorker.java");
    String source = """
        package fixtures;

        public class LateWorker {
          private boolean stop;

          public void start() {
            new Thread(() -> { while (!stop) { Thread.onSpinWait(); } }).start();
          }

          public void halt() {
            stop = true;
          }
        }
        """;
    Analysis added = prefilter.update(created, source);
    Expect.candidate(added, "fixtures.LateWorker.stop");
    assertEquals(initial.files() + 1, added.files());
    assertTrue(added.touching(created).stream().anyMatch(c -> c.field().equals("fixtures.LateWorker.stop")));
    Analysis removed = prefilter.remove(created);
    Expect.noCandidate(removed, "fixtures.LateWorker.stop");
    assertEquals(initial.candidates(), removed.candidates());
  }

  @Test
  void anUpdateGivesTheSameAnswerAsAFreshScanOfTheSameText() throws Exception {
    String fixed = Files.readString(inconsistent).replace("public void set(", "public synchronized void set(");
    Analysis incremental = prefilter.update(inconsistent, fixed);
    Files.writeString(inconsistent, fixed);
    Analysis fresh = Prefilter.open(dir, Classpath.given(List.of())).scan();
    assertEquals(fresh.candidates(), incremental.candidates());
  }
}
