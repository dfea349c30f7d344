package dev.racetriage.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The examples project (examples/racy-shapes, outside the reactor): its sources are compiled here with javax.tools
 * against the JUnit jars of this module's test class path, and its JUnit suite is run under the agent in a forked
 * JVM. The agent must report exactly the racy fields its README's table lists (read from the README, so an example
 * added there is checked too) — none of the synchronised counterparts.
 */
class RacyShapesExamplesIT {
  private static final Pattern FIELD_KEY = Pattern.compile("`(dev\\.racetriage\\.examples\\.[\\w$.]+(?:\\[\\])?)`");

  /** The field keys in the "racy fields (field key)" column (the third) of the README's table. */
  static Set<String> expectedFromReadme(Path readme) throws IOException {
    Set<String> keys = new TreeSet<>();
    for (String line : Files.readAllLines(readme)) {
      String[] cells = line.split("\\|");
      if (line.startsWith("|") && cells.length > 3) {
        Matcher m = FIELD_KEY.matcher(cells[3]);
        while (m.find()) {
          keys.add(m.group(1));
        }
      }
    }
    return keys;
  }

  @Test
  void theExamplesSuiteReportsExactlyTheRacyFieldsOfTheReadme() throws Exception {
    Path examples = Path.of(System.getProperty("racetriage.examples.dir")).toAbsolutePath().normalize();
    assertTrue(Files.isDirectory(examples.resolve("src/main/java")), "examples project not found at " + examples);
    Set<String> expected = expectedFromReadme(examples.resolve("README.md"));
    assertTrue(expected.contains("dev.racetriage.examples.Point.x"), "README table not understood: " + expected);
    Path classes = compile(examples);
    AgentJvm.Result result = AgentJvm.run("racy-shapes", "mode=detect",
        classes + File.pathSeparator + AgentJvm.TEST_CLASSPATH, "dev.racetriage.agent.it.JUnitRunMain",
        "dev.racetriage.examples");
    assertEquals(0, result.exitCode(), "the examples' tests must pass under the agent: " + result.describe());
    assertEquals("ok", result.report().status(), result.report().lines().toString());
    assertEquals(expected, result.report().racyFields(), result.describe());
    assertEquals(0, result.report().summaryNumber("internalErrors"), result.report().summary());
  }

  /** Compiles the examples' main and test sources into the IT work directory. */
  static Path compile(Path project) throws IOException {
    Path out = Files.createDirectories(AgentJvm.WORK.resolve("racy-shapes-classes"));
    List<String> sources = new ArrayList<>();
    for (String root : List.of("src/main/java", "src/test/java")) {
      try (Stream<Path> files = Files.walk(project.resolve(root))) {
        files.filter(p -> p.toString().endsWith(".java")).forEach(p -> sources.add(p.toString()));
      }
    }
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    List<String> args = new ArrayList<>(List.of("-g", "--release", "17", "-d", out.toString(),
        "-cp", AgentJvm.TEST_CLASSPATH));
    args.addAll(sources);
    StringWriter messages = new StringWriter();
    int status = compiler.run(null, null, null, args.toArray(new String[0]));
    assertEquals(0, status, "compiling " + project + " failed: " + messages);
    return out;
  }
}
