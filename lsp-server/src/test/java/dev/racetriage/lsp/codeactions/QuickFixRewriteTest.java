package dev.racetriage.lsp.codeactions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.lsp.source.DeclaredField;
import dev.racetriage.lsp.source.DeclaredFields;
import dev.racetriage.lsp.source.DocumentRewrite;
import dev.racetriage.lsp.source.JavaSyntax;
import java.util.Optional;
import org.eclipse.jdt.core.dom.ASTVisitor;
import org.eclipse.jdt.core.dom.Block;
import org.eclipse.jdt.core.dom.CompilationUnit;
import org.eclipse.jdt.core.dom.MethodDeclaration;
import org.eclipse.jdt.core.dom.rewrite.ASTRewrite;
import org.junit.jupiter.api.Test;

/** The JDT rewrites behind the quick fixes, on the shapes where they must apply, and where they must not. */
class QuickFixRewriteTest {

  private static DeclaredField field(CompilationUnit unit, String key) {
    return DeclaredFields.of(unit).get(key).orElseThrow(() -> new AssertionError("no field " + key));
  }

  private static Block body(CompilationUnit unit, String method) {
    Block[] found = new Block[1];
    unit.accept(new ASTVisitor() {
      @Override
      public boolean visit(MethodDeclaration node) {
        if (node.getName().getIdentifier().equals(method)) {
          found[0] = node.getBody();
        }
        return true;
      }
    });
    return found[0];
  }

  private static Optional<String> localCopy(String source, String key, String method) {
    CompilationUnit unit = JavaSyntax.parse(source);
    return LocalCopyProcessor.plan(body(unit, method), field(unit, key))
        .map(rewrite -> DocumentRewrite.apply(rewrite, source));
  }

  @Test
  void addVolatileSplitsADeclarationOfSeveralFields() {
    String source = "package p;\n\nclass Counter {\n  private int done, failed;\n}\n";
    CompilationUnit unit = JavaSyntax.parse(source);
    ASTRewrite rewrite = AddVolatileProcessor.rewrite(field(unit, "p.Counter.done"));
    assertEquals("package p;\n\nclass Counter {\n  private int failed;\n  private volatile int done;\n}\n",
        DocumentRewrite.apply(rewrite, source));
  }

  @Test
  void addVolatileKeepsAnnotationsAndInitialiser() {
    String source = "class Flags {\n    @Deprecated\n    static boolean stop = false;\n}\n";
    CompilationUnit unit = JavaSyntax.parse(source);
    assertEquals("class Flags {\n    @Deprecated\n    static volatile boolean stop = false;\n}\n",
        DocumentRewrite.apply(AddVolatileProcessor.rewrite(field(unit, "Flags.stop")), source));
  }

  @Test
  void addVolatileOnANestedClassField() {
    String source = "package p;\nclass Outer {\n  static class Inner {\n    Object cache;\n  }\n}\n";
    CompilationUnit unit = JavaSyntax.parse(source);
    assertEquals("package p;\nclass Outer {\n  static class Inner {\n    volatile Object cache;\n  }\n}\n",
        DocumentRewrite.apply(AddVolatileProcessor.rewrite(field(unit, "p.Outer$Inner.cache")), source));
  }

  @Test
  void localCopyOfAStaticFieldQualifiesTheInitialiser() {
    String source = """
        class Config {
          static String[] args;

          int count() {
            if (Config.args == null) {
              return 0;
            }
            return args.length;
          }
        }
        """;
    assertEquals(Optional.of("""
        class Config {
          static String[] args;

          int count() {
            String[] args = Config.args;
            if (args == null) {
              return 0;
            }
            return args.length;
          }
        }
        """), localCopy(source, "Config.args", "count"));
  }

  @Test
  void localCopyGoesIntoTheInnermostBlockThatHoldsEveryRead() {
    String source = """
        class Holder {
          private Runnable task;

          void poke(boolean now) {
            log();
            if (now) {
              if (this.task != null) {
                this.task.run();
              }
            }
          }

          void log() {}
        }
        """;
    String patched = localCopy(source, "Holder.task", "poke").orElseThrow();
    assertTrue(patched.contains("    if (now) {\n      Runnable task = this.task;\n      if (task != null) {\n"
        + "        task.run();\n"), patched);
  }

  /** JUMBLE's Figure 8 (examples' RacyInitLoop): the busy-wait keeps re-reading; the loop's check-then-act copies. */
  @Test
  void inALoopTheCopyIsTakenAfreshInEachRound() {
    String source = """
        class RacyInitLoop {
          Runnable x;

          int drawLoop(int rounds) {
            while (x == null) {
              Thread.yield();
            }
            int drawn = 0;
            for (int i = 0; i < rounds; i++) {
              if (x != null) {
                x.run();
              }
            }
            return drawn;
          }
        }
        """;
    String patched = localCopy(source, "RacyInitLoop.x", "drawLoop").orElseThrow();
    assertTrue(patched.contains("    while (x == null) {"), "the busy-wait still reads the field: " + patched);
    assertTrue(patched.contains("    for (int i = 0; i < rounds; i++) {\n      Runnable x = this.x;\n"
        + "      if (x != null) {\n        x.run();\n"), patched);
  }

  @Test
  void localCopyIsNotOfferedWhereItWouldChangeTheMethod() {
    String shape = """
        class Shapes {
          private Runnable task;
          private final Object lock = new Object();

          void readOnce() { if (task != null) {} }
          void written() { if (task != null) { task.run(); task = null; } }
          void parameter(Runnable task) { if (this.task != null) { this.task.run(); } }
          void lambda() { if (task != null) { Runnable r = () -> task.run(); } }
          void locked() { if (task != null) { synchronized (lock) { task.run(); } } }
          void otherObject(Shapes other) { if (other.task != null) { other.task.run(); } }
        }
        """;
    for (String method : new String[] {"readOnce", "written", "parameter", "lambda", "locked", "otherObject"}) {
      assertEquals(Optional.empty(), localCopy(shape, "Shapes.task", method), method);
    }
  }
}
