package dev.racetriage.prefilter.parse;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.eclipse.jdt.core.JavaCore;
import org.eclipse.jdt.core.dom.AST;
import org.eclipse.jdt.core.dom.ASTParser;
import org.eclipse.jdt.core.dom.CompilationUnit;
import org.eclipse.jdt.core.dom.FileASTRequestor;

/**
 * JDT {@link ASTParser} set up for a project: bindings resolved against its source roots, the library classpath and
 * the running JDK, with bindings and statements recovery so files with syntax errors are analysed as far as JDT
 * recovers them. One JDT parser per call and per batch: JDT parsers are single-use and not thread-safe.
 */
public final class JavaParser {

  /**
   * Java 17, and only what the analysis needs: task tags (TODO scanning of every comment) and Javadoc parsing off,
   * optional warnings off — together about a sixth of a cold scan of a well-commented library.
   */
  private static final Map<String, String> OPTIONS = analysisOptions();

  /** More batches than this duplicate more of the referenced types' work than they gain. */
  public static final int MAX_BATCHES = 4;
  /** A smaller project is parsed in one batch: a thread's start-up is not worth it. */
  public static final int MIN_BATCH_FILES = 40;

  private final String[] classpath;
  private final String[] sourcepath;
  private final String[] sourceEncodings;

  private final int threads;

  public JavaParser(List<Path> sourceRoots, Classpath libraries) {
    this(sourceRoots, libraries, Runtime.getRuntime().availableProcessors());
  }

  /** With at most {@code threads} batches parsed at once in {@link #parseAll}. */
  public JavaParser(List<Path> sourceRoots, Classpath libraries, int threads) {
    this.threads = threads;
    this.classpath = libraries.entries().stream().map(Path::toString).toArray(String[]::new);
    this.sourcepath = sourceRoots.stream().map(Path::toString).toArray(String[]::new);
    this.sourceEncodings = sourceRoots.stream().map(root -> "UTF-8").toArray(String[]::new);
  }

  /**
   * Batch mode: parses the files in a few JDT batches at once (one per core, at most {@link #MAX_BATCHES}, and none
   * smaller than {@link #MIN_BATCH_FILES} files), each batch a contiguous run of the list so a package and the types
   * it refers to mostly share one environment, and hands each unit over as soon as it is resolved — from the batch's
   * thread, so {@code sink} must be thread-safe.
   */
  public void parseAll(List<Path> files, BiConsumer<Path, CompilationUnit> sink) {
    int batches = Math.min(Math.min(threads, MAX_BATCHES), Math.max(1, files.size() / MIN_BATCH_FILES));
    if (batches <= 1) {
      parseBatch(files, sink);
      return;
    }
    List<List<Path>> runs = new ArrayList<>();
    for (int i = 0; i < batches; i++) {
      runs.add(files.subList(files.size() * i / batches, files.size() * (i + 1) / batches));
    }
    ExecutorService pool = Executors.newFixedThreadPool(batches - 1, task -> {
      Thread thread = new Thread(task, "racetriage-prefilter-batch");
      thread.setDaemon(true);
      return thread;
    });
    try {
      List<Future<?>> others = new ArrayList<>();
      for (List<Path> run : runs.subList(1, runs.size())) {
        others.add(pool.submit(() -> parseBatch(run, sink)));
      }
      parseBatch(runs.get(0), sink);
      for (Future<?> other : others) {
        other.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while parsing the project's files", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * One JDT environment for a run of files. JDT's compiler can fail on code it cannot resolve (an internal exception
   * aborts the whole batch): the files not handed over yet are then parsed one by one, and a file that still fails
   * is parsed without bindings.
   */
  private void parseBatch(List<Path> files, BiConsumer<Path, CompilationUnit> sink) {
    if (files.isEmpty()) {
      return;
    }
    Set<Path> done = new HashSet<>();
    ASTParser parser = newParser(true);
    String[] paths = files.stream().map(Path::toString).toArray(String[]::new);
    String[] encodings = files.stream().map(f -> "UTF-8").toArray(String[]::new);
    try {
      parser.createASTs(paths, encodings, new String[0], new FileASTRequestor() {
        @Override
        public void acceptAST(String sourceFilePath, CompilationUnit ast) {
          Path path = Path.of(sourceFilePath);
          done.add(path);
          sink.accept(path, ast);
        }
      }, null);
    } catch (RuntimeException | StackOverflowError e) {
      for (Path file : files) {
        if (!done.contains(file)) {
          sink.accept(file, parseOne(file, read(file)));
        }
      }
    }
  }

  /** Incremental mode: parses one file from the text an editor holds; other files are read from the source path. */
  public CompilationUnit parseOne(Path file, String text) {
    try {
      return parse(file, text, true);
    } catch (RuntimeException | StackOverflowError e) {
      // JDT's resolver failed on this text: keep the syntax; fields are then matched by name
      return parse(file, text, false);
    }
  }

  private CompilationUnit parse(Path file, String text, boolean bindings) {
    ASTParser parser = newParser(bindings);
    parser.setSource(text.toCharArray());
    // the unit name tells JDT which type the text declares, and so where it sits in the source path
    parser.setUnitName(file.toString());
    return (CompilationUnit) parser.createAST(null);
  }

  private static String read(Path file) {
    try {
      return java.nio.file.Files.readString(file, java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      return ""; // vanished or unreadable since it was listed: analysed as empty
    }
  }

  private static Map<String, String> analysisOptions() {
    Map<String, String> options = JavaCore.getOptions();
    JavaCore.setComplianceOptions(JavaCore.VERSION_17, options);
    options.put(JavaCore.COMPILER_TASK_TAGS, "");
    options.put(JavaCore.COMPILER_DOC_COMMENT_SUPPORT, JavaCore.DISABLED);
    options.replaceAll((key, value) -> key.startsWith("org.eclipse.jdt.core.compiler.problem.")
        && (JavaCore.WARNING.equals(value) || JavaCore.INFO.equals(value)) ? JavaCore.IGNORE : value);
    return Map.copyOf(options);
  }

  private ASTParser newParser(boolean bindings) {
    JdtInitialisation.ensure();
    ASTParser parser = ASTParser.newParser(AST.getJLSLatest());
    parser.setKind(ASTParser.K_COMPILATION_UNIT);
    parser.setCompilerOptions(new java.util.HashMap<>(OPTIONS)); // JDT may keep and change the map
    parser.setEnvironment(classpath, sourcepath, sourceEncodings, true);
    parser.setResolveBindings(bindings);
    parser.setBindingsRecovery(bindings);
    parser.setStatementsRecovery(true);
    return parser;
  }
}
