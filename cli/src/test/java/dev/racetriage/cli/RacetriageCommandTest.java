package dev.racetriage.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class RacetriageCommandTest {

  /** Runs the command as main() would, capturing what it prints. */
  private record Result(int exitCode, String out, String err) {}

  private static Result run(String... args) {
    CommandLine cli = RacetriageCommand.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(args);
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void helpListsEverySubcommand() {
    Result result = run("--help");
    assertEquals(0, result.exitCode());
    for (String sub : new String[] {"triage", "scan", "daemon", "lsp", "dashboard", "mark"}) {
      assertTrue(result.out().contains("  " + sub + " "), () -> sub + " missing from:\n" + result.out());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"triage", "scan", "daemon", "lsp", "dashboard", "mark"})
  void everySubcommandHasHelp(String sub) {
    Result result = run(sub, "--help");
    assertEquals(0, result.exitCode(), result.err());
    assertTrue(result.out().startsWith("Usage: racetriage " + sub), result.out());
  }

  @Test
  void unknownOptionIsAUsageError() {
    Result result = run("--bogus");
    assertEquals(2, result.exitCode());
    assertTrue(result.err().contains("Unknown option: '--bogus'"), result.err());
  }

  @Test
  void unknownSubcommandOptionIsAUsageError() {
    Result result = run("triage", "--no-such-thing");
    assertEquals(2, result.exitCode());
    assertTrue(result.err().contains("--no-such-thing"), result.err());
  }

  @Test
  void missingRequiredOptionIsAUsageError() {
    Result result = run("mark", "com.example.Cache.hash");
    assertEquals(2, result.exitCode());
    assertTrue(result.err().contains("Missing required option"), result.err());
  }

  @Test
  void versionNamesTheTool() {
    Result result = run("--version");
    assertEquals(0, result.exitCode());
    assertTrue(result.out().startsWith("racetriage "), result.out());
  }

  @Test
  void theDaemonRefusesADirectoryThatIsNotAMavenProject(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    Result result = run("daemon", dir.toString());
    assertEquals(2, result.exitCode());
    assertTrue(result.err().contains("is not a Maven project (no pom.xml)"), result.err());
  }
}
