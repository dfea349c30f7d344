package dev.racetriage.cli;

import static dev.racetriage.cli.CliRun.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class RacetriageCommandTest {



  @Test
  void helpListsEverySubcommand() {
    CliRun result = run("--help");
    assertEquals(0, result.exitCode());
    for (String sub : new String[] {"triage", "scan", "daemon", "lsp", "dashboard", "mark"}) {
      assertTrue(result.out().contains("  " + sub + " "), () -> sub + " missing from:\n" + result.out());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"triage", "scan", "daemon", "lsp", "dashboard", "mark"})
  void everySubcommandHasHelp(String sub) {
    CliRun result = run(sub, "--help");
    assertEquals(0, result.exitCode(), result.err());
    assertTrue(result.out().startsWith("Usage: racetriage " + sub), result.out());
  }

  @Test
  void unknownOptionIsAUsageError() {
    CliRun result = run("--bogus");
    assertEquals(2, result.exitCode());
    assertTrue(result.err().contains("Unknown option: '--bogus'"), result.err());
  }

  @Test
  void unknownSubcommandOptionIsAUsageError() {
    CliRun result = run("triage", "--no-such-thing");
    assertEquals(2, result.exitCode());
    assertTrue(result.err().contains("--no-such-thing"), result.err());
  }

  @Test
  void missingRequiredOptionIsAUsageError() {
    CliRun result = run("mark", "com.example.Cache.hash");
    assertEquals(2, result.exitCode());
    assertTrue(result.err().contains("Missing required option"), result.err());
  }

  @Test
  void versionNamesTheTool() {
    CliRun result = run("--version");
    assertEquals(0, result.exitCode());
    assertTrue(result.out().startsWith("racetriage "), result.out());
  }

  @Test
  void theDaemonRefusesADirectoryThatIsNotAMavenProject(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    CliRun result = run("daemon", dir.toString());
    assertEquals(2, result.exitCode());
    assertTrue(result.err().contains("is not a Maven project (no pom.xml)"), result.err());
  }
}
