package dev.racetriage.agent.it;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Launches {@code java -javaagent:<shaded agent jar>=<options> -cp <class path> <main> <args>} the way a user (or
 * the runner) would, and collects its exit code, output and report file. The jar and the test class path come from
 * failsafe system properties (see the module's pom).
 */
final class AgentJvm {
  static final Path AGENT_JAR = Path.of(required("racetriage.agent.jar"));
  static final String TEST_CLASSPATH = required("racetriage.it.classpath");
  static final Path WORK = Path.of(required("racetriage.it.work"));
  static final Path CLASS_CACHE_HOME = WORK.resolve("xdg-cache");

  /** What a finished JVM left behind. */
  record Result(int exitCode, String stdout, String stderr, AgentReport report) {
    String describe() {
      return "exit " + exitCode + "\n--- stdout\n" + stdout + "\n--- stderr\n" + stderr;
    }
  }

  private AgentJvm() {
  }

  static Result run(String name, String agentOptions, String classPath, String mainClass, String... args)
      throws IOException, InterruptedException {
    return run(name, List.of(), agentOptions, classPath, mainClass, args);
  }

  /** As {@link #run(String, String, String, String, String...)}, with JVM options before the agent's. */
  static Result run(String name, List<String> jvmOptions, String agentOptions, String classPath, String mainClass,
                    String... args) throws IOException, InterruptedException {
    Running jvm = start(name, jvmOptions, agentOptions, classPath, mainClass, args);
    if (!jvm.process().waitFor(120, TimeUnit.SECONDS)) {
      jvm.process().destroyForcibly().waitFor();
      fail(name + ": the JVM under the agent did not finish in 120 s; output in " + jvm.dir());
    }
    return jvm.result();
  }

  /** A JVM under the agent that was started and may still run. */
  record Running(Process process, Path dir, Path report, Path stdout, Path stderr) {
    /** What it left behind; call after it ended. */
    Result result() throws IOException {
      return new Result(process.exitValue(), Files.readString(stdout, StandardCharsets.UTF_8),
          Files.readString(stderr, StandardCharsets.UTF_8), AgentReport.read(report));
    }

    /** Waits until the report file holds a line that starts with {@code prefix} (the agent writes while it runs). */
    void awaitReportLine(String prefix) throws IOException, InterruptedException {
      await("a report line " + prefix,
          () -> Files.exists(report) && Files.readString(report, StandardCharsets.UTF_8).contains("\n" + prefix));
    }

    /** Waits until its standard output has {@code text}. */
    void awaitOutput(String text) throws IOException, InterruptedException {
      await("the output " + text, () -> Files.readString(stdout, StandardCharsets.UTF_8).contains(text));
    }

    /** A condition waited for, with a deadline far above what it takes: no duration is assumed. */
    private void await(String what, Condition condition) throws IOException, InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!condition.holds()) {
        if (!process.isAlive()) {
          fail("the JVM ended before " + what + ": " + result().describe());
        }
        if (System.nanoTime() > deadline) {
          process.destroyForcibly().waitFor();
          fail("no " + what + " from the running JVM in 120 s; output in " + dir);
        }
        Thread.sleep(50);
      }
    }
  }

  private interface Condition {
    boolean holds() throws IOException;
  }

  /** Starts the JVM under the agent and returns at once. */
  static Running start(String name, List<String> jvmOptions, String agentOptions, String classPath, String mainClass,
                       String... args) throws IOException {
    assertTrue(Files.isRegularFile(AGENT_JAR), "the shaded agent jar is missing: " + AGENT_JAR
        + " (run the integration tests with mvn verify, after package)");
    Path dir = Files.createDirectories(WORK.resolve(name));
    Path report = dir.resolve("report.jsonl");
    Files.deleteIfExists(report);
    String options = agentOptions.isEmpty() ? "out=" + report : agentOptions + ";out=" + report;
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-javaagent:" + AGENT_JAR + "=" + options, "-Xshare:auto", "-cp", classPath, mainClass));
    command.addAll(List.of(args));
    Path stdout = dir.resolve("stdout.txt");
    Path stderr = dir.resolve("stderr.txt");
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
        .redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
    // one class cache for all the integration tests, not the user's: the first JVM to load a class instruments and
    // stores it, later ones (the same fixture run again, other fixtures' JDK classes) take it from the cache
    builder.environment().put("XDG_CACHE_HOME", CLASS_CACHE_HOME.toString());
    return new Running(builder.start(), dir, report, stdout, stderr);
  }

  private static String required(String property) {
    String value = System.getProperty(property);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException("system property " + property
          + " is not set: run the integration tests through failsafe (mvn verify)");
    }
    return value;
  }
}
