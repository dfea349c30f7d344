package dev.racetriage.lsp;

import static dev.racetriage.lsp.DiagnosticsTest.forField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextEdit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CodeActionTest {
  @TempDir Path project;

  private static CodeAction titled(List<CodeAction> actions, String title) {
    return actions.stream().filter(a -> a.getTitle().equals(title)).findFirst()
        .orElseThrow(() -> new AssertionError("no action '" + title + "' among "
            + actions.stream().map(CodeAction::getTitle).toList()));
  }

  private static String applied(CodeAction action, String uri, String text) {
    Map<String, List<TextEdit>> changes = action.getEdit().getChanges();
    assertEquals(List.of(uri), List.copyOf(changes.keySet()));
    return LspSession.apply(text, changes.get(uri));
  }

  @Test
  void addVolatileRewritesTheDeclaration() throws Exception {
    try (LspSession session = LspSession.start()) {
      session.initialize(Fixtures.mavenProject(project));
      String text = Fixtures.text(Fixtures.SINGLETON);
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
      PublishDiagnosticsParams published =
          session.client.awaitDiagnostics(uri, p -> forField(p, "demo.LazySingletonBad.instance").isPresent());
      Diagnostic diagnostic = forField(published, "demo.LazySingletonBad.instance").orElseThrow();

      List<CodeAction> actions = session.codeActions(uri, diagnostic.getRange(), List.of(diagnostic));
      CodeAction addVolatile = titled(actions, "Add volatile to `instance`");
      assertEquals("quickfix", addVolatile.getKind());
      assertTrue(addVolatile.getIsPreferred(), "volatile is the fix for double-checked locking");
      assertEquals(List.of(diagnostic), addVolatile.getDiagnostics());
      assertEquals(text.replace("private static LazySingletonBad instance;",
              "private static volatile LazySingletonBad instance;"),
          applied(addVolatile, uri, text));
      titled(actions, "Mark `instance` as trusted-benign");
      titled(actions, "Triage `instance` now");
    }
  }

  @Test
  void aQuickFixRightAfterAnEditIsBuiltOnTheNewTextWithoutWaitingForItsAnalysis() throws Exception {
    try (LspSession session = LspSession.start()) {
      session.initialize(Fixtures.mavenProject(project));
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
      PublishDiagnosticsParams published =
          session.client.awaitDiagnostics(uri, p -> forField(p, "demo.LazySingletonBad.instance").isPresent());
      Diagnostic diagnostic = forField(published, "demo.LazySingletonBad.instance").orElseThrow();
      // from now on edits are never analysed: the action must come from the published findings and the new text
      com.google.gson.JsonObject slow = new com.google.gson.JsonObject();
      com.google.gson.JsonObject inner = new com.google.gson.JsonObject();
      inner.addProperty("debounceMillis", 3_600_000);
      slow.add("racetriage", inner);
      session.server.getWorkspaceService().didChangeConfiguration(
          new org.eclipse.lsp4j.DidChangeConfigurationParams(slow));
      String edited = "// a line typed above the class\n" + Fixtures.text(Fixtures.SINGLETON);
      session.replaceText(uri, edited);
      // the client moved its diagnostic down with the text, as editors do
      Range moved = new Range(new Position(diagnostic.getRange().getStart().getLine() + 1,
          diagnostic.getRange().getStart().getCharacter()), new Position(diagnostic.getRange().getEnd().getLine() + 1,
          diagnostic.getRange().getEnd().getCharacter()));
      diagnostic.setRange(moved);

      CodeAction addVolatile =
          titled(session.codeActions(uri, moved, List.of(diagnostic)), "Add volatile to `instance`");
      assertEquals(edited.replace("private static LazySingletonBad instance;",
          "private static volatile LazySingletonBad instance;"), applied(addVolatile, uri, edited));
    }
  }

  @Test
  void makeLocalCopyReadsTheFieldOnceWhereItIsTestedThenUsed() throws Exception {
    try (LspSession session = LspSession.start()) {
      session.initialize(Fixtures.mavenProject(project));
      String text = Fixtures.text(Fixtures.WORKER);
      String uri = session.open(Fixtures.source(project, Fixtures.WORKER));
      PublishDiagnosticsParams published =
          session.client.awaitDiagnostics(uri, p -> forField(p, "demo.WorkerBad.task").isPresent());

      // the cursor on "if (task != null) {" in runOnce()
      int line = (int) text.lines().takeWhile(l -> !l.contains("public void runOnce()")).count() + 1;
      Range cursor = new Range(new Position(line, 10), new Position(line, 10));
      CodeAction localCopy = titled(session.codeActions(uri, cursor, List.of()), "Make local copy of `task`");
      String expected = text.replace(
          "  public void runOnce() {\n    if (task != null) {",
          "  public void runOnce() {\n    Runnable task = this.task;\n    if (task != null) {");
      assertTrue(!expected.equals(text));
      assertEquals(expected, applied(localCopy, uri, text));
    }
  }

  @Test
  void makeLocalCopyIsNotOfferedInABusyWaitLoop() throws Exception {
    try (LspSession session = LspSession.start()) {
      session.initialize(Fixtures.mavenProject(project));
      String text = Fixtures.text(Fixtures.WORKER);
      String uri = session.open(Fixtures.source(project, Fixtures.WORKER));
      session.client.awaitDiagnostics(uri, p -> forField(p, "demo.WorkerBad.task").isPresent());
      // drain() re-reads task in its loop condition: a local copy would make the loop spin on a stale value
      int line = (int) text.lines().takeWhile(l -> !l.contains("while (task != null) {")).count();
      Range cursor = new Range(new Position(line, 12), new Position(line, 12));
      List<String> titles = session.codeActions(uri, cursor, List.of()).stream().map(CodeAction::getTitle).toList();
      assertTrue(titles.contains("Add volatile to `task`"), titles.toString());
      assertTrue(!titles.contains("Make local copy of `task`"), titles.toString());
    }
  }

  /**
   * examples/racy-shapes' RacyInitLoop.x, destructive in the store: its diagnostic sits on the declaration, and from
   * there "Make local copy of `x` in `drawLoop()`" is offered; the edited class compiles.
   */
  @Test
  void makeLocalCopyIsOfferedFromTheDeclarationDiagnosticAndItsEditCompiles() throws Exception {
    Path examples = Path.of("..", "examples", "racy-shapes", "src", "main", "java", "dev", "racetriage", "examples")
        .toAbsolutePath().normalize();
    Path dir = project.resolve("src/main/java/dev/racetriage/examples");
    java.nio.file.Files.createDirectories(dir);
    for (String name : List.of("RacyInitLoop.java", "Circle.java")) {
      java.nio.file.Files.copy(examples.resolve(name), dir.resolve(name));
    }
    java.nio.file.Files.writeString(project.resolve("pom.xml"), Fixtures.text("pom.xml"));
    String key = "dev.racetriage.examples.RacyInitLoop.x";
    try (dev.racetriage.store.TriageStore store = StoreFixture.open(project)) {
      StoreFixture.race(store, key, 24, 14, "RacyInitLoop.java");
      store.verdicts().set(dev.racetriage.store.FieldKey.parse(key), dev.racetriage.store.verdicts.Verdict.DESTRUCTIVE,
          dev.racetriage.store.verdicts.Evidence.of("3/3 runs failed under oldest, 0/3 under sc"), null);
    }
    Path source = dir.resolve("RacyInitLoop.java");
    String text = java.nio.file.Files.readString(source);
    try (LspSession session = LspSession.start()) {
      session.initialize(project);
      String uri = session.open(source);
      PublishDiagnosticsParams published = session.client.awaitDiagnostics(uri,
          p -> forField(p, key).filter(d -> d.getSeverity() == org.eclipse.lsp4j.DiagnosticSeverity.Error).isPresent());
      Diagnostic diagnostic = forField(published, key).orElseThrow();
      int declaration = (int) text.lines().takeWhile(l -> !l.contains("  Circle x;")).count();
      assertEquals(declaration, diagnostic.getRange().getStart().getLine(), "the diagnostic is on the declaration");

      CodeAction copy = titled(session.codeActions(uri, diagnostic.getRange(), List.of(diagnostic)),
          "Make local copy of `x` in `drawLoop()`");
      String patched = applied(copy, uri, text);
      assertTrue(patched.contains("      Circle x = this.x;\n      if (x != null) {"), patched);
      java.nio.file.Files.writeString(source, patched);
      Path out = java.nio.file.Files.createDirectories(project.resolve("classes"));
      int compiled = javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", out.toString(),
          source.toString(), dir.resolve("Circle.java").toString());
      assertEquals(0, compiled, "the edited class compiles");
    }
  }
}
