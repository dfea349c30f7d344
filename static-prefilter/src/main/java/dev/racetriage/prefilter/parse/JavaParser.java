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

  private final String[] classpath;
  private final String[] sourcepath;
  private final String[] sourceEncodings;

  public JavaParser(List<Path> sourceRoots, Classpath libraries) {
    this.classpath = libraries.entries().stream().map(Path::toString).toArray(String[]::new);
    this.sourcepath = sourceRoots.stream().map(Path::toString).toArray(String[]::new);
    this.sourceEncodings = sourceRoots.stream().map(root -> "UTF-8").toArray(String[]::new);
  }

  /** Batch mode: parses every file in one JDT environment and hands each unit over as soon as it is resolved. */
  public void parseAll(List<Path> files, BiConsumer<Path, CompilationUnit> sink) {
    if (files.isEmpty()) {
      return;
    }
    ASTParser parser = newParser();
    String[] paths = files.stream().map(Path::toString).toArray(String[]::new);
    String[] encodings = files.stream().map(f -> "UTF-8").toArray(String[]::new);
    parser.createASTs(paths, encodings, new String[0], new FileASTRequestor() {
      @Override
      public void acceptAST(String sourceFilePath, CompilationUnit ast) {
        sink.accept(Path.of(sourceFilePath), ast);
      }
    }, null);
  }

  /** Incremental mode: parses one file from the text an editor holds; other files are read from the source path. */
  public CompilationUnit parseOne(Path file, String text) {
    ASTParser parser = newParser();
    parser.setSource(text.toCharArray());
    // the unit name tells JDT which type the text declares, and so where it sits in the source path
    parser.setUnitName(file.toString());
    return (CompilationUnit) parser.createAST(null);
  }

  private ASTParser newParser() {
    ASTParser parser = ASTParser.newParser(AST.getJLSLatest());
    parser.setKind(ASTParser.K_COMPILATION_UNIT);
    Map<String, String> options = JavaCore.getOptions();
    JavaCore.setComplianceOptions(JavaCore.VERSION_17, options);
    parser.setCompilerOptions(options);
    parser.setEnvironment(classpath, sourcepath, sourceEncodings, true);
    parser.setResolveBindings(true);
    parser.setBindingsRecovery(true);
    parser.setStatementsRecovery(true);
    return parser;
  }
}
