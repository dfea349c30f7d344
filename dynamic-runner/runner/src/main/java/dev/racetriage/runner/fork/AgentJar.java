package dev.racetriage.runner.fork;

import dev.racetriage.agent.detect.RaceReportWriter;
import dev.racetriage.launcher.TestLauncherMain;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * Finds racetriage's own jars for the test JVMs: the agent ({@code -javaagent}, and on the class path for the
 * launcher's JSON writer) and the in-JVM test launcher (a jar of its own: the agent jar joins the bootstrap class
 * path, where the project's JUnit Platform is not visible).
 */
public final class AgentJar {
  private AgentJar() {}

  public static Path locate() {
    return jarOf(RaceReportWriter.class, "dynamic-runner/agent");
  }

  public static Path launcher() {
    return jarOf(TestLauncherMain.class, "dynamic-runner/launcher");
  }

  /**
   * The modes this agent jar implements, from its manifest ({@code Racetriage-Modes: detect,jumble}); a jar that
   * does not say implements detection only.
   */
  public static Set<String> modes(Path agentJar) {
    try (JarFile jar = new JarFile(agentJar.toFile())) {
      Manifest manifest = jar.getManifest();
      String modes = manifest == null ? null : manifest.getMainAttributes().getValue("Racetriage-Modes");
      return modes == null ? Set.of("detect") : Set.of(modes.strip().split("\\s*,\\s*"));
    } catch (IOException e) {
      throw new IllegalStateException("Cannot read the agent jar " + agentJar + ": " + e.getMessage(), e);
    }
  }

  /** The launcher's main class, started in every test JVM. */
  public static String launcherMainClass() {
    return TestLauncherMain.class.getName();
  }

  private static Path jarOf(Class<?> type, String module) {
    Path location;
    try {
      location = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException | NullPointerException e) {
      throw new IllegalStateException("Cannot tell which jar holds " + type.getName() + ": " + e, e);
    }
    if (!Files.isRegularFile(location)) {
      throw new IllegalStateException(
          "racetriage's " + module + " must be a packaged jar, but " + type.getName() + " comes from " + location
              + ". Build it with 'mvn -pl " + module + " package' (./racetriage does this for you).");
    }
    return location;
  }
}
