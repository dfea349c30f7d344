package dev.racetriage.lsp.analysis;

import dev.racetriage.lsp.documents.DocumentSnapshot;
import dev.racetriage.lsp.findings.FieldFinding;
import dev.racetriage.lsp.lifecycle.ClientLog;
import dev.racetriage.lsp.workspace.WorkspaceLayout;
import dev.racetriage.prefilter.Analysis;
import dev.racetriage.prefilter.Prefilter;
import dev.racetriage.prefilter.parse.Classpath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.jsonrpc.CancelChecker;

/**
 * The prefilter behind the editor. The workspace's project is scanned once (in batch, on the analysis thread, at the
 * first analysis); after that each change re-analyses only the changed document through the prefilter's incremental
 * entry point ({@link Prefilter#update}), and the candidates touching that document are shown. A document outside the
 * workspace (or in a workspace without Java sources) gets a prefilter of its own directory, without classpath.
 */
public final class PrefilterCandidates implements StaticCandidates {
  private final WorkspaceLayout workspace;
  private final boolean mavenClasspath;
  private final ClientLog log;
  private Prefilter project;
  private boolean projectFailed;
  private final Map<Path, Prefilter> byDirectory = new HashMap<>();

  public PrefilterCandidates(WorkspaceLayout workspace, boolean mavenClasspath, ClientLog log) {
    this.workspace = workspace;
    this.mavenClasspath = mavenClasspath;
    this.log = log;
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
    for (Prefilter prefilter : known()) {
      try {
        if (Files.isRegularFile(file)) {
          prefilter.refresh(file);
        } else {
          prefilter.remove(file);
        }
      } catch (RuntimeException e) {
        log.warn("racetriage: could not re-read " + file + " for the prefilter: " + e.getMessage());
      }
    }
  }

  private List<Prefilter> known() {
    List<Prefilter> all = new java.util.ArrayList<>(byDirectory.values());
    if (project != null) {
      all.add(project);
    }
    return all;
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
    Path directory = file.getParent();
    if (directory == null || !Files.isDirectory(directory)) {
      return Optional.empty();
    }
    Prefilter loose = byDirectory.get(directory);
    if (loose == null) {
      try {
        loose = Prefilter.open(directory, Classpath.none("a file outside the workspace's project"));
      } catch (IllegalArgumentException e) {
        // a directory with no saved Java file yet: nothing to analyse the text against
        return Optional.empty();
      }
      byDirectory.put(directory, loose);
    }
    return Optional.of(loose);
  }

  private Optional<Prefilter> openProject() {
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
      log.info("racetriage: " + e.getMessage() + "; open files are analysed by their own directory");
      return Optional.empty();
    } catch (RuntimeException | LinkageError e) {
      log.showOnce("prefilter-open", MessageType.Warning, "racetriage: the static prefilter could not scan "
          + workspace.root() + " (" + e + "); open files are analysed by their own directory");
      return Optional.empty();
    }
  }
}
