package dev.racetriage.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.Verdict;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end with a third-party client: Neovim's built-in LSP client, headless, starts {@code LanguageServerMain} as
 * its server process (the same class {@code racetriage lsp} runs), opens two files of {@code examples/racy-shapes}
 * and records what it received ({@code neovim/racetriage-e2e.lua}). Checked here: the static candidate on
 * {@code RacyInitLoop.x}, the store's benign verdict on {@code HashCache.hash}, the quick fix round trip (code action
 * → Neovim applies the WorkspaceEdit → didChange → the diagnostic is withdrawn), and exit code 0 after Neovim's
 * shutdown + exit. Needs {@code nvim} 0.7 or newer on the PATH ({@code .ci/run} installs Debian's).
 */
class NeovimClientTest {
  private static final String PACKAGE_DIR = Fixtures.EXAMPLES_PACKAGE_DIR;
  private static final String RACY_X = "dev.racetriage.examples.RacyInitLoop.x";
  private static final String HASH = "dev.racetriage.examples.HashCache.hash";
  private static final long WAIT_MS = 60_000;
  private static final long NVIM_TIMEOUT_SECONDS = 180;
  private static final int NVIM_SEVERITY_HINT = 4;

  @TempDir Path work;

  @Test
  void neovimSeesDiagnosticsAppliesAQuickFixAndShutsTheServerDown() throws Exception {
    Optional<Path> nvim = onPath("nvim");
    Assumptions.assumeTrue(nvim.isPresent(),
        "nvim is not installed: the Neovim end-to-end test is skipped (apt-get install -y neovim; .ci/run does)");

    Path project = Fixtures.racyShapes(work.resolve("racy-shapes"));
    try (TriageStore store = StoreFixture.open(project)) {
      StoreFixture.race(store, HASH, 19, 26, "HashCache.java"); // int h = hash; / hash = h;
      store.verdicts().set(FieldKey.parse(HASH), Verdict.BENIGN,
          Evidence.of("stale reads served, every test passed"), null);
    }
    Path racyInitLoop = project.resolve(PACKAGE_DIR).resolve("RacyInitLoop.java");
    Path hashCache = project.resolve(PACKAGE_DIR).resolve("HashCache.java");

    JsonObject result = runNeovim(nvim.get(), project, List.of(racyInitLoop, hashCache));

    assertNull(result.get("error"), () -> "the Lua script failed: " + result);
    JsonObject files = result.getAsJsonObject("files");
    JsonObject x = diagnosticFor(files.getAsJsonArray(racyInitLoop.toString()), RACY_X)
        .orElseThrow(() -> new AssertionError("Neovim got no diagnostic for " + RACY_X + ": " + result));
    assertEquals("racetriage", x.get("source").getAsString());
    assertEquals("busy-wait", x.get("code").getAsString(), x.toString());
    assertEquals(10, x.get("lnum").getAsInt(), "anchored on the declaration `Circle x;` (0-based line 10)");
    assertEquals(9, x.get("col").getAsInt(), "on the name x");

    JsonObject hash = diagnosticFor(files.getAsJsonArray(hashCache.toString()), HASH)
        .orElseThrow(() -> new AssertionError("Neovim got no diagnostic for " + HASH + ": " + result));
    assertEquals("benign", hash.get("code").getAsString(), "the store's verdict replaces the candidate: " + hash);
    assertEquals(NVIM_SEVERITY_HINT, hash.get("severity").getAsInt());

    List<String> actions = strings(result.getAsJsonArray("code_actions"));
    assertTrue(actions.contains("Add volatile to `x`"), actions::toString);
    assertTrue(actions.contains("Mark `x` as trusted-benign"), actions::toString);
    List<String> lines = strings(result.getAsJsonArray("fixed_lines"));
    assertEquals("  volatile Circle x;", lines.get(10), "Neovim applied the server's WorkspaceEdit");
    assertEquals(Files.readAllLines(racyInitLoop).size(), lines.size(), "only the declaration changed");
    assertFalse(diagnosticFor(result.getAsJsonArray("after_fix"), RACY_X).isPresent(),
        () -> "after the edit the server re-analysed the buffer and withdrew the diagnostic: " + result);

    JsonElement exit = result.get("exit");
    assertTrue(exit.isJsonObject(), exit::toString);
    assertEquals(0, exit.getAsJsonObject().get("code").getAsInt(), "exit code 0: Neovim sent shutdown, then exit");
  }

  /**
   * The README's Neovim snippet as a user pastes it into {@code init.lua}, on the Neovim installed (Debian 12's is
   * 0.7.2, which has no {@code vim.lsp.start}): opening a Java file of the examples starts {@code racetriage lsp} (a
   * {@code racetriage} on PATH that runs this module's server) and its diagnostics arrive.
   */
  @Test
  void theReadmeSnippetShowsDiagnostics() throws Exception {
    Optional<Path> nvim = onPath("nvim");
    Assumptions.assumeTrue(nvim.isPresent(), "nvim is not installed: the README snippet test is skipped");
    Path project = Fixtures.racyShapes(work.resolve("racy-shapes"));
    Path init = work.resolve("init.lua");
    Files.writeString(init, readmeSnippet());
    Path bin = Files.createDirectories(work.resolve("bin"));
    Path launcher = bin.resolve("racetriage");
    StringBuilder java = new StringBuilder();
    serverCommand().forEach(word -> java.append(" '").append(word.getAsString().replace("'", "'\\''")).append("'"));
    Files.writeString(launcher, "#!/bin/sh\n# racetriage lsp, from this build\nexec" + java + "\n");
    launcher.toFile().setExecutable(true);
    Path out = work.resolve("snippet-result.json");
    Path home = Files.createDirectories(work.resolve("nvim-home"));
    Path log = work.resolve("nvim-snippet-output.txt");
    Path file = project.resolve(PACKAGE_DIR).resolve("RacyInitLoop.java");
    ProcessBuilder builder = new ProcessBuilder(nvim.get().toString(), "--headless", "-i", "NONE", "-n",
        "-u", init.toString(), "-c", "luafile " + resource("/neovim/readme-harness.lua"), file.toString())
        .directory(project.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile());
    for (String xdg : List.of("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")) {
      builder.environment().put(xdg, home.toString());
    }
    builder.environment().put("PATH", bin + File.pathSeparator + System.getenv("PATH"));
    builder.environment().put("RACETRIAGE_E2E_OUT", out.toString());
    builder.environment().put("RACETRIAGE_E2E_WAIT_MS", Long.toString(WAIT_MS));
    Process process = builder.start();
    try {
      if (!process.waitFor(NVIM_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        fail("nvim did not finish within " + NVIM_TIMEOUT_SECONDS + " s\n" + logs(log, home));
      }
    } finally {
      process.destroyForcibly();
    }
    assertTrue(Files.isRegularFile(out), () -> "nvim wrote no result\n" + logs(log, home));
    JsonObject result = JsonParser.parseString(Files.readString(out)).getAsJsonObject();
    assertNull(result.get("error"), () -> result + "\n" + logs(log, home));
    assertEquals(1, result.get("clients").getAsInt(), () -> "the snippet started one client: " + result);
    assertTrue(diagnosticFor(result.getAsJsonArray("diagnostics"), RACY_X).isPresent(),
        () -> "Neovim " + result.get("nvim") + " got no diagnostic for " + RACY_X + ": " + result + "\n" + logs(log, home));
  }

  /** The first {@code lua} block after "**Neovim**" in the repository's README. */
  private static String readmeSnippet() throws IOException {
    String readme = Files.readString(Path.of("..", "README.md").toAbsolutePath().normalize());
    int neovim = readme.indexOf("**Neovim**");
    assertTrue(neovim >= 0, "the README has a **Neovim** section");
    int start = readme.indexOf("```lua\n", neovim) + "```lua\n".length();
    return readme.substring(start, readme.indexOf("```", start));
  }

  private static Path resource(String name) {
    try {
      return Path.of(NeovimClientTest.class.getResource(name).toURI());
    } catch (URISyntaxException | NullPointerException e) {
      throw new IllegalStateException("test resource " + name + " is missing", e);
    }
  }

  private JsonObject runNeovim(Path nvim, Path project, List<Path> files) throws IOException, InterruptedException {
    Path out = work.resolve("nvim-result.json");
    Path home = Files.createDirectories(work.resolve("nvim-home"));
    Path log = work.resolve("nvim-output.txt");
    ProcessBuilder builder = new ProcessBuilder(nvim.toString(), "--headless", "-u", "NONE", "-i", "NONE", "-n",
        "-c", "luafile " + script())
        .directory(project.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile());
    Map<String, String> env = builder.environment();
    // Neovim's own state (lsp.log with the server's stderr, shada) goes under the test's directory, not $HOME
    for (String xdg : List.of("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")) {
      env.put(xdg, home.toString());
    }
    env.put("RACETRIAGE_E2E_CMD", serverCommand().toString());
    env.put("RACETRIAGE_E2E_ROOT", project.toString());
    JsonArray fileList = new JsonArray();
    files.forEach(f -> fileList.add(f.toString()));
    env.put("RACETRIAGE_E2E_FILES", fileList.toString());
    env.put("RACETRIAGE_E2E_FIX_FIELD", RACY_X);
    env.put("RACETRIAGE_E2E_WAIT_MS", Long.toString(WAIT_MS));
    env.put("RACETRIAGE_E2E_OUT", out.toString());

    Process process = builder.start();
    try {
      if (!process.waitFor(NVIM_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        fail("nvim did not finish within " + NVIM_TIMEOUT_SECONDS + " s\n" + logs(log, home));
      }
      assertTrue(Files.isRegularFile(out), () -> "nvim exited (" + process.exitValue()
          + ") without writing its result\n" + logs(log, home));
      JsonObject result = JsonParser.parseString(Files.readString(out)).getAsJsonObject();
      assertNotNull(result.get("files"), () -> result + "\n" + logs(log, home));
      return result;
    } finally {
      process.destroyForcibly();
    }
  }

  /** The server as an editor starts it: a JVM running LanguageServerMain on stdio, with this module's classpath. */
  private static JsonArray serverCommand() {
    JsonArray command = new JsonArray();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    LanguageServerMain.VM_OUTPUT_TO_STDERR.forEach(command::add);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(LanguageServerMain.class.getName());
    return command;
  }

  private static Path script() {
    try {
      return Path.of(NeovimClientTest.class.getResource("/neovim/racetriage-e2e.lua").toURI());
    } catch (URISyntaxException | NullPointerException e) {
      throw new IllegalStateException("test resource neovim/racetriage-e2e.lua is missing", e);
    }
  }

  private static List<String> strings(JsonArray array) {
    assertNotNull(array, "the Lua script recorded no list here");
    List<String> out = new java.util.ArrayList<>();
    array.forEach(e -> out.add(e.getAsString()));
    return out;
  }

  private static Optional<JsonObject> diagnosticFor(JsonArray diagnostics, String fieldKey) {
    if (diagnostics == null) {
      return Optional.empty();
    }
    for (JsonElement element : diagnostics) {
      JsonObject diagnostic = element.getAsJsonObject();
      JsonElement key = diagnostic.get("fieldKey");
      if (key != null && key.isJsonPrimitive() && fieldKey.equals(key.getAsString())) {
        return Optional.of(diagnostic);
      }
    }
    return Optional.empty();
  }

  private static Optional<Path> onPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    return Stream.of(path.split(File.pathSeparator))
        .filter(dir -> !dir.isEmpty())
        .map(dir -> Path.of(dir, program))
        .filter(Files::isExecutable)
        .findFirst();
  }

  /** nvim's own output and the LSP log (the server's stderr lands there): what a failure needs to be understood. */
  private static String logs(Path nvimOutput, Path home) {
    StringBuilder text = new StringBuilder();
    for (Path file : List.of(nvimOutput, home.resolve("nvim").resolve("lsp.log"))) {
      text.append("--- ").append(file).append('\n');
      try {
        text.append(Files.exists(file) ? Files.readString(file) : "(none)\n");
      } catch (IOException e) {
        text.append("(unreadable: ").append(e.getMessage()).append(")\n");
      }
    }
    return text.toString();
  }
}
