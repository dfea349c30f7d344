package dev.racetriage.lsp.analysis;

import dev.racetriage.lsp.documents.DocumentSnapshot;
import dev.racetriage.lsp.findings.FieldFinding;
import dev.racetriage.lsp.lifecycle.ClientLog;
import dev.racetriage.lsp.progress.WorkProgress;
import dev.racetriage.lsp.workspace.WorkspaceLayout;
import dev.racetriage.prefilter.Analysis;
import dev.racetriage.prefilter.Candidate;
import dev.racetriage.prefilter.Prefilter;
import dev.racetriage.prefilter.parse.Classpath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.jsonrpc.CancelChecker;

/**
 * The prefilter behind the editor. The workspace's project is scanned once in batch, on a thread of its own (from
 * {@code initialized}, or the first analysis); until the scan is done an open file shows the candidates of its own
 * text alone ({@link #preview}), so the editor is not left empty for the length of the scan. After it, each change
 * re-analyses only the changed document through the prefilter's incremental entry point ({@link Prefilter#update}),
 * and text the prefilter already holds ({@link HeldTexts}: a file reopened unchanged, a closed buffer equal to the
 * disk, a save) is not parsed again. Documents outside the workspace (or in a workspace without Java sources) share
 * one prefilter without classpath that knows only the open documents: opening {@code /tmp/A.java} must not walk all
 * of {@code /tmp} for sources.
 */
public final class PrefilterCandidates implements StaticCandidates {
  private final WorkspaceLayout workspace;
  /** Maven's answer per pom fingerprint, shared by every server on this machine: a restart skips Maven. */
  private static final MavenClasspathCache CLASSPATHS = new MavenClasspathCache(MavenClasspathCache.defaultDirectory(),
      root -> new dev.racetriage.prefilter.parse.MavenClasspathResolver().resolve(root));

  private final boolean mavenClasspath;
  private final ClientLog log;
  private final WorkProgress progress;
  private final AtomicBoolean scanStarted = new AtomicBoolean();
  private final AtomicBoolean whenReadyRegistered = new AtomicBoolean();
  /** The scanned project, or empty when it could not be scanned (its files are then analysed one by one). */
  private final CompletableFuture<Optional<Prefilter>> project = new CompletableFuture<>();
  // guarded by this: the project's latest analysis and the texts it came from
  private Analysis latest;
  private HeldTexts held;
  private Prefilter looseFiles;
  private final Object previewLock = new Object();
  private Prefilter previewFiles;

  public PrefilterCandidates(WorkspaceLayout workspace, boolean mavenClasspath, ClientLog log, WorkProgress progress) {
    this.workspace = workspace;
    this.mavenClasspath = mavenClasspath;
    this.log = log;
    this.progress = progress;
  }

  @Override
  public boolean ready(Path file) {
    return !workspace.contains(file) || project.isDone();
  }

  @Override
  public void prepare(Runnable whenReady) {
    if (whenReadyRegistered.compareAndSet(false, true)) {
      project.thenRun(whenReady);
    }
    startScan();
  }

  @Override
  public List<FieldFinding> analyse(DocumentSnapshot document, CancelChecker cancel) {
    Path file = document.path();
    if (!workspace.contains(file)) {
      return looseFile(document);
    }
    startScan();
    Optional<Prefilter> scanned = project.join();
    if (scanned.isEmpty()) {
      return looseFile(document);
    }
    cancel.checkCanceled();
    synchronized (this) {
      if (!held.holds(file, document.text())) {
        latest = scanned.get().update(file, document.text());
        held.gave(file, document.text());
      }
      return findings(latest.touching(file));
    }
  }

  /**
   * The document's own text analysed alone, without the project and its classpath: fewer facts (no accesses from
   * other files, fewer resolved types), but available in a fraction of the scan's time.
   */
  @Override
  public List<FieldFinding> preview(DocumentSnapshot document, CancelChecker cancel) {
    synchronized (previewLock) {
      if (previewFiles == null) {
        previewFiles = openEmpty("racetriage-preview").orElse(null);
        if (previewFiles == null) {
          return List.of();
        }
      }
      cancel.checkCanceled();
      try {
        return findings(previewFiles.update(document.path(), document.text()).touching(document.path()));
      } finally {
        previewFiles.remove(document.path());
      }
    }
  }

  @Override
  public synchronized void fileChanged(Path file) {
    try {
      if (!workspace.contains(file)) {
        // the loose prefilter knows only open documents: a closed or saved one is analysed again when it changes
        if (looseFiles != null) {
          looseFiles.remove(file);
        }
        return;
      }
      Optional<Prefilter> scanned = project.isDone() ? project.join() : Optional.empty();
      if (scanned.isEmpty()) {
        return; // not scanned yet (the scan reads the disk) or never: nothing holds the old text
      }
      if (Files.isRegularFile(file)) {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        if (!held.holds(file, text)) {
          latest = scanned.get().update(file, text);
          held.gave(file, text);
        }
      } else {
        latest = scanned.get().remove(file);
        held.forgot(file);
      }
    } catch (IOException | RuntimeException e) {
      log.warn("racetriage: could not re-read " + file + " for the prefilter: " + e.getMessage());
    }
  }

  private static List<FieldFinding> findings(List<Candidate> candidates) {
    return candidates.stream().map(CandidateFindings::toFinding).toList();
  }

  private List<FieldFinding> looseFile(DocumentSnapshot document) {
    Prefilter loose;
    synchronized (this) {
      if (looseFiles == null) {
        looseFiles = openEmpty("racetriage-loose-files").orElse(null);
      }
      loose = looseFiles;
    }
    if (loose == null) {
      return List.of();
    }
    return findings(loose.update(document.path(), document.text()).touching(document.path()));
  }

  /** Scans the project once, on a thread of its own: the analysis thread stays free to publish previews. */
  private void startScan() {
    if (!scanStarted.compareAndSet(false, true)) {
      return;
    }
    Thread scan = new Thread(() -> {
      Optional<Prefilter> opened = Optional.empty();
      try {
        long started = System.currentTimeMillis();
        Optional<Scanned> result = scanProject();
        synchronized (this) {
          result.ifPresent(r -> {
            latest = r.analysis();
            held = new HeldTexts(started);
          });
        }
        opened = result.map(Scanned::prefilter);
      } finally {
        project.complete(opened);
      }
    }, "racetriage-scan");
    scan.setDaemon(true);
    scan.start();
  }

  private record Scanned(Prefilter prefilter, Analysis analysis) {}

  private Optional<Scanned> scanProject() {
    WorkProgress.Job job = progress.begin("racetriage: scanning " + workspace.root().getFileName(),
        mavenClasspath ? "reading the Maven classpath, then every source file once" : "every source file once");
    try {
      long start = System.nanoTime();
      Prefilter opened = Prefilter.open(workspace.root(), mavenClasspath
          ? CLASSPATHS.resolve(workspace.root())
          : Classpath.none("racetriage.mavenClasspath is false"));
      Analysis scan = opened.scan();
      log.info("racetriage: scanned " + scan.files() + " files of " + workspace.root() + " in "
          + (System.nanoTime() - start) / 1_000_000 + " ms: " + scan.candidates().size() + " candidates; classpath: "
          + opened.classpath().detail());
      return Optional.of(new Scanned(opened, scan));
    } catch (IllegalArgumentException e) {
      log.info("racetriage: " + e.getMessage() + "; open files are analysed one by one");
      return Optional.empty();
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      log.showOnce("prefilter-open", MessageType.Warning, "racetriage: the static prefilter could not scan "
          + workspace.root() + " (" + e + "); open files are analysed one by one");
      return Optional.empty();
    } finally {
      job.close();
    }
  }

  /**
   * The prefilter API opens a directory with at least one source; an empty private one (with a placeholder class)
   * gives a prefilter whose facts are exactly the documents analysed through it.
   */
  private Optional<Prefilter> openEmpty(String name) {
    try {
      Path dir = Files.createTempDirectory(name);
      Path placeholder = Files.writeString(dir.resolve("RacetriageLooseFiles.java"),
          "final class RacetriageLooseFiles {}\n");
      placeholder.toFile().deleteOnExit();
      dir.toFile().deleteOnExit();
      return Optional.of(Prefilter.open(dir, Classpath.none("a file analysed on its own")));
    } catch (IOException | RuntimeException e) {
      log.warn("racetriage: files cannot be analysed on their own (" + name + "): " + e.getMessage());
      return Optional.empty();
    }
  }
}
