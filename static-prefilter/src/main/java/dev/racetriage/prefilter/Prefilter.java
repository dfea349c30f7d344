package dev.racetriage.prefilter;

import dev.racetriage.prefilter.facts.FileFacts;
import dev.racetriage.prefilter.parse.Classpath;
import dev.racetriage.prefilter.parse.JavaParser;
import dev.racetriage.prefilter.parse.MavenClasspathResolver;
import dev.racetriage.prefilter.parse.SourceRoots;
import dev.racetriage.prefilter.rank.CandidateRanker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The static prefilter of one project. {@link #scan()} parses every source file in a few JDT batches (one per
 * core, for large projects); {@link #update}
 * re-parses a single file from an editor's text and replaces only that file's facts, keeping every other file's,
 * and re-judges only the fields that file touches (unless the edit changes which threads run what); both return
 * the ranked candidates of the whole project. Calls are serialised: an editor may call {@code update}
 * from a worker thread on every (debounced) change.
 */
public final class Prefilter {

  private final Path projectDir;
  private final SourceRoots sources;
  private final Classpath classpath;
  private final JavaParser parser;
  private final Map<String, FileFacts> facts = new LinkedHashMap<>();
  private final Map<String, String> problems = new LinkedHashMap<>();
  /** The ranker of the current facts; null after a change it cannot follow incrementally (rebuilt when asked). */
  private CandidateRanker ranker;
  /** Whether the last update re-judged only the fields its file touches (tests check both paths agree). */
  private boolean lastUpdateIncremental;

  private Prefilter(Path projectDir, SourceRoots sources, Classpath classpath) {
    this.projectDir = projectDir;
    this.sources = sources;
    this.classpath = classpath;
    this.parser = new JavaParser(sources.roots(), classpath);
  }

  /**
   * Opens a project directory: finds its Java sources and asks Maven for its classpath (no classpath, with lower
   * confidence, when there is no pom.xml or Maven fails).
   *
   * @throws IllegalArgumentException when the directory does not exist or holds no Java source
   */
  public static Prefilter open(Path projectDir) {
    Path dir = checkedProjectDir(projectDir);
    SourceRoots sources = checkedSources(dir);
    return new Prefilter(dir, sources, new MavenClasspathResolver().resolve(dir));
  }

  /** Opens a project with a classpath the caller already knows (or {@link Classpath#none} to skip Maven). */
  public static Prefilter open(Path projectDir, Classpath classpath) {
    Path dir = checkedProjectDir(projectDir);
    return new Prefilter(dir, checkedSources(dir), classpath);
  }

  private static Path checkedProjectDir(Path projectDir) {
    Path dir = projectDir.toAbsolutePath().normalize();
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("no such directory: " + dir);
    }
    return dir;
  }

  private static SourceRoots checkedSources(Path dir) {
    SourceRoots sources = SourceRoots.discover(dir);
    if (sources.files().isEmpty()) {
      throw new IllegalArgumentException("no Java sources (*.java) under " + dir
          + " (build output folders such as target/ are skipped); point it at a project directory");
    }
    return sources;
  }

  public Path projectDir() {
    return projectDir;
  }

  public Classpath classpath() {
    return classpath;
  }

  public List<Path> sourceRoots() {
    return sources.roots();
  }

  /** Batch mode: parses every source file of the project and ranks the candidates. */
  public synchronized Analysis scan() {
    long start = System.nanoTime();
    facts.clear();
    problems.clear();
    ranker = null;
    Map<String, Analyzed> results = new java.util.concurrent.ConcurrentHashMap<>();
    parser.parseAll(sources.files(), (path, unit) -> {
      String name = path.toAbsolutePath().normalize().toString();
      results.put(name, analyzed(name, unit));
    });
    for (Path file : sources.files()) { // in the sources' order whichever batch finished first: a stable ranking
      String name = file.toAbsolutePath().normalize().toString();
      if (results.containsKey(name)) {
        record(name, results.get(name));
      }
    }
    return rank(start);
  }

  /**
   * Incremental mode, for an editor: re-analyses one file from its current (possibly unsaved, possibly broken) text.
   * Only this file is parsed; the facts of the other files stay as they were. A file new to the project is added.
   */
  public synchronized Analysis update(Path file, String text) {
    long start = System.nanoTime();
    String name = file.toAbsolutePath().normalize().toString();
    FileFacts before = facts.get(name);
    analyze(name, parser.parseOne(Path.of(name), text));
    FileFacts after = facts.get(name);
    lastUpdateIncremental = ranker != null && (before == after || (before != null && ranker.replace(before, after)));
    if (!lastUpdateIncremental) {
      ranker = null; // a new file, or an edit that changes the project's threads: rank from scratch
    }
    return rank(start);
  }

  /** Re-reads one file from disk (after a save or an external change) and re-analyses it. */
  public Analysis refresh(Path file) {
    try {
      return update(file, Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + " to re-analyse it", e);
    }
  }

  /** Forgets a deleted file. */
  public synchronized Analysis remove(Path file) {
    long start = System.nanoTime();
    facts.remove(file.toAbsolutePath().normalize().toString());
    problems.remove(file.toAbsolutePath().normalize().toString());
    ranker = null;
    return rank(start);
  }

  /** The candidates as of the last scan or update, without parsing anything. */
  public synchronized Analysis current() {
    return rank(System.nanoTime());
  }

  /** The current facts ranked by a new ranker, as a scan would: what an incremental update must agree with. */
  synchronized Analysis rankedFromScratch() {
    ranker = null;
    return rank(System.nanoTime());
  }

  synchronized boolean lastUpdateIncremental() {
    return lastUpdateIncremental;
  }

  private void analyze(String file, org.eclipse.jdt.core.dom.CompilationUnit unit) {
    record(file, analyzed(file, unit));
  }

  /** A file's facts, or why they could not be extracted. */
  private record Analyzed(FileFacts facts, String problem) {}

  /**
   * Extracts a file's facts. A failure of the analysis itself is a bug, but it must not cost the user the rest of the
   * project: the file keeps its previous facts (none in a fresh scan) and the problem is reported with the analysis.
   */
  private static Analyzed analyzed(String file, org.eclipse.jdt.core.dom.CompilationUnit unit) {
    try {
      return new Analyzed(FileAnalyzer.analyze(file, unit), null);
    } catch (RuntimeException | StackOverflowError e) {
      return new Analyzed(null, file + ": analysis failed (" + e + "); its fields may be missing from the candidates."
          + " Please report it with the file.");
    }
  }

  private void record(String file, Analyzed result) {
    if (result.facts() != null) {
      facts.put(file, result.facts());
      problems.remove(file);
    } else {
      problems.put(file, result.problem());
    }
  }

  private Analysis rank(long startNanos) {
    if (ranker == null) {
      ranker = new CandidateRanker(new ArrayList<>(facts.values()), classpath);
    }
    List<Candidate> candidates = ranker.rank();
    return new Analysis(candidates, facts.size(), (System.nanoTime() - startNanos) / 1_000_000, classpath,
        new ArrayList<>(problems.values()));
  }
}
