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

  @Test
  void editsThatKeepTheThreadsAreRankedIncrementallyAndAgreeWithAFullRanking() throws Exception {
    Path project = Fixtures.project(dir.resolve("edits"), "SharedStats", "StatsDriver", "InconsistentSyncBad",
        "LossyCounterBad", "ArraySlotsBad", "DoubleCheckedLockingBad");
    Prefilter editor = Prefilter.open(project, Classpath.given(List.of()));
    editor.scan();
    Path stats = Fixtures.fileOf(project, "SharedStats");
    Path slots = Fixtures.fileOf(project, "ArraySlotsBad");
    Path dcl = Fixtures.fileOf(project, "DoubleCheckedLockingBad");
    String statsText = Files.readString(stats);
    String slotsText = Files.readString(slots);
    String dclText = Files.readString(dcl);
    List<Edit> edits = List.of(
        new Edit(stats, statsText.replace("private long total;", "private volatile long total;"), true),
        new Edit(stats, statsText.replace("private long total;", "\n\n  private long total;"), true),
        new Edit(stats, statsText, true),
        new Edit(slots, slotsText.replace("private final int[] slots", "private final long[] slots"), true),
        new Edit(slots, slotsText.replace("return slots[0];", "return 0;"), true),
        new Edit(slots, slotsText, true),
        new Edit(dcl, dclText.replace("if (helper == null) {\n      synchronized", "{\n      synchronized"), true),
        new Edit(dcl, dclText.replace("return helper;", "return helper; }}}"), false), // broken: JDT recovers less
        new Edit(dcl, dclText, false),
        // its first lock makes the class "uses locks" (its callers concurrent): not incremental
        new Edit(stats, statsText.replace("total += value;", "synchronized (this) { total += value; }"), false),
        new Edit(stats, statsText, false),
        // a new method: the threads of the project may change
        new Edit(stats, statsText.replace("public long total()", "public void reset() { total = 0; }\n  public long total()"),
            false));
    for (Edit edit : edits) {
      Analysis incremental = editor.update(edit.file(), edit.text());
      if (edit.incremental()) {
        assertTrue(editor.lastUpdateIncremental(), () -> "expected an incremental ranking for " + edit.text());
      }
      assertEquals(editor.rankedFromScratch().candidates(), incremental.candidates(), edit.text());
    }
    Expect.candidate(editor.current(), "fixtures.SharedStats.total");
  }

  private record Edit(Path file, String text, boolean incremental) {}
}
