package dev.racetriage.lsp.analysis;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.lsp.documents.DocumentSnapshot;
import dev.racetriage.lsp.findings.FieldFinding;
import dev.racetriage.lsp.lifecycle.ClientLog;
import dev.racetriage.lsp.progress.WorkProgress;
import dev.racetriage.lsp.workspace.WorkspaceLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real prefilter behind the editor, on a small project: the preview of a file before the scan, and that text the
 * prefilter already holds is reused only when it really is the same text (reopen, close, a change on disk).
 */
class PrefilterCandidatesTest {
  private static final String FLAG = "demo.Flag.ready";
  private static final String RACY = """
      package demo;

      public class Flag {
        private boolean ready;

        public void waitUntilReady() {
          while (!ready) {
            Thread.onSpinWait();
          }
        }

        public void release() {
          ready = true;
        }
      }
      """;
  private static final String FIXED = RACY.replace("private boolean ready;", "private volatile boolean ready;");

  @TempDir Path root;

  private Path file;
  private int version;

  private PrefilterCandidates project() throws Exception {
    file = root.resolve("src/main/java/demo/Flag.java");
    Files.createDirectories(file.getParent());
    Files.writeString(file, RACY);
    // older than the scan by more than the timestamp margin: the scan's reading of it can be trusted
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minusSeconds(60)));
    return new PrefilterCandidates(WorkspaceLayout.detect(root), false, new ClientLog(), WorkProgress.none());
  }

  private DocumentSnapshot document(String text) {
    return new DocumentSnapshot(file.toUri().toString(), file, ++version, text);
  }

  private static boolean flags(List<FieldFinding> findings) {
    return findings.stream().anyMatch(f -> f.fieldKey().equals(FLAG));
  }

  private static void awaitScan(PrefilterCandidates candidates) throws InterruptedException {
    CountDownLatch ready = new CountDownLatch(1);
    candidates.prepare(ready::countDown);
    assertTrue(ready.await(60, TimeUnit.SECONDS), "the scan finished");
  }

  @Test
  void beforeTheScanAFileShowsTheCandidatesOfItsOwnText() throws Exception {
    PrefilterCandidates candidates = project();
    assertFalse(candidates.ready(file), "nothing is scanned before prepare");
    List<FieldFinding> preview = candidates.preview(document(RACY), () -> { });
    assertTrue(flags(preview), preview.toString());
    assertFalse(flags(candidates.preview(document(FIXED), () -> { })), "the preview forgets the previous text");

    awaitScan(candidates);
    assertTrue(candidates.ready(file));
    assertTrue(flags(candidates.analyse(document(RACY), () -> { })));
  }

  @Test
  void reusedTextIsTheSameTextAfterEditsClosesAndChangesOnDisk() throws Exception {
    PrefilterCandidates candidates = project();
    awaitScan(candidates);
    assertTrue(flags(candidates.analyse(document(RACY), () -> { })), "opened as on disk: the scan's facts");
    assertFalse(flags(candidates.analyse(document(FIXED), () -> { })), "edited: analysed again");

    candidates.fileChanged(file); // closed without saving: back to the disk's text
    assertTrue(flags(candidates.analyse(document(RACY), () -> { })));

    Files.writeString(file, FIXED); // saved by another tool
    candidates.fileChanged(file);
    assertFalse(flags(candidates.analyse(document(FIXED), () -> { })));
    assertTrue(flags(candidates.analyse(document(RACY), () -> { })), "and back");

    Files.delete(file);
    candidates.fileChanged(file);
    assertTrue(flags(candidates.analyse(document(RACY), () -> { })), "a deleted file reopened from a buffer");
  }

  @Test
  void aFileWrittenJustBeforeTheScanIsNotTrustedToBeWhatTheScanRead() throws Exception {
    Path written = Files.writeString(Files.createDirectories(root.resolve("d")).resolve("A.java"), "class A {}");
    HeldTexts recent = new HeldTexts(System.currentTimeMillis());
    assertFalse(recent.holds(written, "class A {}"), "within the timestamp margin");
    HeldTexts later = new HeldTexts(System.currentTimeMillis() + HeldTexts.TIMESTAMP_MARGIN_MILLIS + 1_000);
    assertTrue(later.holds(written, "class A {}"));
    assertFalse(later.holds(written, "class A { int x; }"));
    later.gave(written, "class A { int x; }");
    assertTrue(later.holds(written, "class A { int x; }"));
    assertFalse(later.holds(written, "class A {}"), "the given text wins over the disk");
    later.forgot(written);
    assertFalse(later.holds(written, "class A {}"));
    assertFalse(later.holds(root.resolve("missing.java"), ""));
  }
}
