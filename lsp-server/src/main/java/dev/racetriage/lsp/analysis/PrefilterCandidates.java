package dev.racetriage.lsp.analysis;

import dev.racetriage.lsp.documents.DocumentSnapshot;
import dev.racetriage.lsp.findings.FieldFinding;
import dev.racetriage.lsp.lifecycle.ClientLog;
import dev.racetriage.lsp.progress.WorkProgress;
import dev.racetriage.lsp.workspace.WorkspaceLayout;
import dev.racetriage.prefilter.Analysis;
import dev.racetriage.prefilter.Prefilter;
import dev.racetriage.prefilter.parse.Classpath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.jsonrpc.CancelChecker;

/**
 * The prefilter behind the editor. The workspace's project is scanned once (in batch, on the analysis thread, at the
 * first analysis); after that each change re-analyses only the changed document through the prefilter's incremental
 * entry point ({@link Prefilter#update}), and the candidates touching that document are shown. Documents outside the
 * workspace (or in a workspace without Java sources) share one prefilter without classpath that knows only the open
 * documents: opening {@code /tmp/A.java} must not walk all of {@code /tmp} for sources.
 */
public final class PrefilterCandidates implements StaticCandidates {
  private final WorkspaceLayout workspace;
  private final boolean mavenClasspath;
  private final ClientLog log;
  private final WorkProgress progress;
  private Prefilter project;
  private boolean projectFailed;
  private Prefilter looseFiles;

  public PrefilterCandidates(WorkspaceLayout workspace, boolean mavenClasspath, ClientLog log, WorkProgress progress) {
    this.workspace = workspace;
    this.mavenClasspath = mavenClasspath;
    this.log = log;
    this.progress = progress;
  }

  @Override
  public List<FieldFinding> analyse(DocumentSnapshot document, CancelChecker cancel) {
    Optional<Prefilter> prefilter = prefilterFor(document.path());
    if (prefilter.isEmpty()) {
      return List.of();
    }
    cancel.checkCanceled();
    Analysis analysis = prefilter.get().update(document.path(), document.text());
    return analysis.touching(document.path()).stream().map(CandidateFindings::toFinding).toList();
  }

  @Override
  public synchronized void fileChanged(Path file) {
    try {
      if (!workspace.contains(file)) {
        // the loose prefilter knows only open documents: a closed or saved one is analysed again when it changes
        if (looseFiles != null) {
          looseFiles.remove(file);
        }
      } else if (project != null) {
        if (Files.isRegularFile(file)) {
          project.refresh(file);
        } else {
          project.remove(file);
        }
      }
    } catch (RuntimeException e) {
      log.warn("racetriage: could not re-read " + file + " for the prefilter: " + e.getMessage());
    }
  }

  private synchronized Optional<Prefilter> prefilterFor(Path file) {
    if (workspace.contains(file) && !projectFailed) {
      if (project == null) {
        project = openProject().orElse(null);
        projectFailed = project == null;
      }
      if (project != null) {
        return Optional.of(project);
      }
    }
    if (looseFiles == null) {
      looseFiles = openLooseFiles().orElse(null);
    }
    return Optional.ofNullable(looseFiles);
  }

  /**
   * The prefilter API opens a directory with at least one source; an empty private one (with a placeholder class)
   * gives a prefilter whose facts are exactly the documents analysed through it.
   */
  private Optional<Prefilter> openLooseFiles() {
    try {
      Path dir = Files.createTempDirectory("racetriage-loose-files");
      Path placeholder = Files.writeString(dir.resolve("RacetriageLooseFiles.java"),
          "final class RacetriageLooseFiles {}\n");
      placeholder.toFile().deleteOnExit();
      dir.toFile().deleteOnExit();
      return Optional.of(Prefilter.open(dir, Classpath.none("a file outside the workspace's project")));
    } catch (java.io.IOException | RuntimeException e) {
      log.warn("racetriage: files outside the workspace are not analysed: " + e.getMessage());
      return Optional.empty();
    }
  }

  private Optional<Prefilter> openProject() {
    WorkProgress.Job job = progress.begin("racetriage: scanning " + workspace.root().getFileName(),
        mavenClasspath ? "reading the Maven classpath, then every source file once" : "every source file once");
    try {
      long start = System.nanoTime();
      Prefilter opened = mavenClasspath
          ? Prefilter.open(workspace.root())
          : Prefilter.open(workspace.root(), Classpath.none("racetriage.mavenClasspath is false"));
      Analysis scan = opened.scan();
      log.info("racetriage: scanned " + scan.files() + " files of " + workspace.root() + " in "
          + (System.nanoTime() - start) / 1_000_000 + " ms: " + scan.candidates().size() + " candidates; classpath: "
          + opened.classpath().detail());
      return Optional.of(opened);
    } catch (IllegalArgumentException e) {
      log.info("racetriage: " + e.getMessage() + "; open files are analysed one by one");
      return Optional.empty();
    } catch (RuntimeException | LinkageError e) {
      log.showOnce("prefilter-open", MessageType.Warning, "racetriage: the static prefilter could not scan "
          + workspace.root() + " (" + e + "); open files are analysed one by one");
      return Optional.empty();
    } finally {
      job.close();
    }
  }
}
