package dev.racetriage.prefilter.parse;

import java.nio.file.Path;
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
 * recovers them. One parser per call: JDT parsers are single-use and not thread-safe.
 */
public final class JavaParser {

  /**
   * Java 17, and only what the analysis needs: task tags (TODO scanning of every comment) and Javadoc parsing off,
   * optional warnings off — together about a sixth of a cold scan of a well-commented library.
   */
  private static final Map<String, String> OPTIONS = analysisOptions();

  private final String[] classpath;
  private final String[] sourcepath;
  private final String[] sourceEncodings;

  public JavaParser(List<Path> sourceRoots, Classpath libraries) {
    this.classpath = libraries.entries().stream().map(Path::toString).toArray(String[]::new);
    this.sourcepath = sourceRoots.stream().map(Path::toString).toArray(String[]::new);
    this.sourceEncodings = sourceRoots.stream().map(root -> "UTF-8").toArray(String[]::new);
  }

  /**
   * Batch mode: parses every file in one JDT environment and hands each unit over as soon as it is resolved. JDT's
   * compiler can fail on code it cannot resolve (an internal exception aborts the whole batch): the files not handed
   * over yet are then parsed one by one, and a file that still fails is parsed without bindings.
   */
  public void parseAll(List<Path> files, BiConsumer<Path, CompilationUnit> sink) {
    if (files.isEmpty()) {
      return;
    }
    java.util.Set<Path> done = new java.util.HashSet<>();
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
