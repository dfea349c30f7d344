package dev.racetriage.runner.fork;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racetriage.runner.process.ExternalCommand;
import dev.racetriage.runner.project.TestModule;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Forks one JVM that runs a module's tests through the in-JVM launcher, with or without the agent, and reads back
 * what each test did. The JVM runs in the module directory, as Surefire runs it.
 */
public final class TestJvm {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final TestModule module;
  private final List<Path> extraClasspath;
  private final Path agentJar;

  public TestJvm(TestModule module, List<Path> launcherJars, Path agentJar) {
    this.module = module;
    this.agentJar = agentJar;
    List<Path> extra = new ArrayList<>(launcherJars);
    extra.add(AgentJar.launcher());
    extra.add(agentJar);
    this.extraClasspath = List.copyOf(extra);
  }

  /**
   * Runs the selection. {@code agentOptions} empty: no agent (the baseline); present: {@code -javaagent} with that
   * option string. Files go to {@code workDir} ({@code results.jsonl}, {@code output.log}).
   */
  public TestRunResult run(TestSelection selection, Optional<String> agentOptions, Duration timeout, Path workDir)
      throws IOException, InterruptedException {
    Files.createDirectories(workDir);
    Path results = workDir.resolve("results.jsonl");
    Path log = workDir.resolve("output.log");
    Files.deleteIfExists(results);
    ExternalCommand command = new ExternalCommand(command(selection, agentOptions, results), module.dir(), Map.of());
    ExternalCommand.Outcome outcome = command.run(timeout, log);
    return read(results, outcome);
  }

  /** The full command line of a test JVM, also shown to users as the replay command of a trial. */
  public List<String> command(TestSelection selection, Optional<String> agentOptions, Path results) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    agentOptions.ifPresent(options -> command.add("-javaagent:" + agentJar + "=" + options));
    command.add("-cp");
    List<String> classpath = new ArrayList<>();
    module.testClasspath().forEach(p -> classpath.add(p.toString()));
    extraClasspath.forEach(p -> classpath.add(p.toString()));
    command.add(String.join(File.pathSeparator, classpath));
    command.add(AgentJar.launcherMainClass());
    command.add("--results");
    command.add(results.toString());
    command.addAll(selection.launcherArguments(module.testClasses()));
    return command;
  }

  /**
   * Starts a trial server: a JVM that runs the selection once per command (the launcher's {@code --serve} mode), with
   * the agent started with {@code agentOptions}. Its stderr (the tests' output too) goes to {@code log}.
   */
  public TrialServerProcess serve(TestSelection selection, String agentOptions, Path results, Path log,
      Duration startTimeout) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(command(selection, Optional.of(agentOptions), results));
    command.add("--serve");
    return TrialServerProcess.start(command, module.dir(), log, startTimeout);
  }

  private static TestRunResult read(Path results, ExternalCommand.Outcome outcome) throws IOException {
    Map<String, TestOutcome> byId = new LinkedHashMap<>();
    Map<String, JsonNode> running = new LinkedHashMap<>();
    boolean completed = false;
    if (Files.isRegularFile(results)) {
      for (String line : Files.readAllLines(results)) {
        if (line.isBlank()) continue;
        JsonNode event;
        try {
          event = JSON.readTree(line);
        } catch (IOException torn) {
          continue; // the last line of a killed JVM may be cut short
        }
        String id = event.path("id").asText();
        switch (event.path("event").asText()) {
          case "started" -> running.put(id, event);
          case "finished" -> {
            running.remove(id);
            byId.put(id, outcome(event, status(event.path("status").asText()), event.path("millis").asLong()));
          }
          case "skipped" -> byId.put(id, outcome(event, TestOutcome.Status.SKIPPED, 0));
          case "summary" -> completed = true;
          default -> { }
        }
      }
    }
    // A test still running when the JVM ended was either cut off at the deadline or ended the JVM itself.
    TestOutcome.Status cutOff = outcome.timedOut() ? TestOutcome.Status.TIMED_OUT : TestOutcome.Status.CRASHED;
    for (Map.Entry<String, JsonNode> entry : running.entrySet()) {
      byId.put(entry.getKey(), outcome(entry.getValue(), cutOff, outcome.elapsed().toMillis()));
    }
    return new TestRunResult(new ArrayList<>(byId.values()), completed && outcome.exitCode() == 0,
        outcome.timedOut(), outcome.exitCode(), outcome.elapsed(), results, outcome.log());
  }

  private static TestOutcome outcome(JsonNode event, TestOutcome.Status status, long millis) {
    JsonNode failure = event.path("failure");
    TestOutcome.Failure f = failure.isObject()
        ? new TestOutcome.Failure(failure.path("type").asText(), text(failure.path("message")), failure.path("stack").asText())
        : null;
    return new TestOutcome(event.path("id").asText(), text(event.path("class")), text(event.path("method")),
        event.path("name").asText(), status, millis, f);
  }

  private static String text(JsonNode node) {
    return node.isMissingNode() || node.isNull() ? null : node.asText();
  }

  private static TestOutcome.Status status(String status) {
    return switch (status) {
      case "passed" -> TestOutcome.Status.PASSED;
      case "aborted" -> TestOutcome.Status.ABORTED;
      default -> TestOutcome.Status.FAILED;
    };
  }
}
