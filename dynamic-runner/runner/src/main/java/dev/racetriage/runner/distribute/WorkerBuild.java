package dev.racetriage.runner.distribute;

import dev.racetriage.runner.fork.AgentJar;
import dev.racetriage.runner.fork.TestJvm;
import dev.racetriage.runner.project.MavenProject;
import dev.racetriage.runner.project.ProjectBuildException;
import dev.racetriage.runner.project.ProjectBuilder;
import dev.racetriage.runner.project.TestModule;
import dev.racetriage.runner.triage.ClassFingerprint;
import dev.racetriage.runner.triage.TriageException;
import dev.racetriage.runner.triage.TriagePipeline;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A checkout built for running trials: the test JVM of each module (by its path relative to the project root, as
 * plans name modules), the class files' fingerprint and the agent's version. {@link #queueFingerprint} is what the
 * queue matches: a worker only takes units planned for exactly this code and this agent.
 */
public record WorkerBuild(Path root, String classFingerprint, String agentVersion, Map<String, TestJvm> jvms) {

  public WorkerBuild {
    jvms = Map.copyOf(jvms);
  }

  /** What the queue matches: the class files and the agent a unit was planned for. */
  public String queueFingerprint() {
    return queueFingerprint(classFingerprint, agentVersion);
  }

  public static String queueFingerprint(String classFingerprint, String agentVersion) {
    return classFingerprint + "+" + agentVersion.substring(0, Math.min(16, agentVersion.length()));
  }

  /** Builds the checkout at {@code root} as a triage does ({@code mvn test-compile} and the effective POM). */
  public static WorkerBuild build(Path root, Duration buildTimeout) throws TriageException, InterruptedException {
    MavenProject project;
    try {
      project = new ProjectBuilder(buildTimeout).build(root);
    } catch (ProjectBuildException e) {
      throw new TriageException(e.getMessage(), e);
    }
    if (project.modules().isEmpty()) {
      throw new TriageException("No compiled tests in " + root + ": a worker runs the trials of a project's JUnit tests"
          + " (src/test/java), and this project has none.");
    }
    Path agentJar = AgentJar.locate();
    Map<String, TestJvm> jvms = new LinkedHashMap<>();
    for (TestModule module : project.modules()) {
      jvms.put(module.name(root), TriagePipeline.testJvm(module, root, agentJar));
    }
    try {
      return new WorkerBuild(root, ClassFingerprint.of(project.modules()), ClassFingerprint.agentVersion(agentJar),
          jvms);
    } catch (IOException e) {
      throw new TriageException("Cannot read the compiled classes of " + root + ": " + e.getMessage(), e);
    }
  }
}
