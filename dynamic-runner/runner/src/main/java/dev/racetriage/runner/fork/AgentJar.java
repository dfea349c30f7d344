package dev.racetriage.runner.fork;

import dev.racetriage.agent.launch.TestLauncherMain;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the racetriage agent jar: the same jar serves as {@code -javaagent} and holds the in-JVM test launcher. */
public final class AgentJar {
  private AgentJar() {}

  public static Path locate() {
    Path location;
    try {
      location = Path.of(TestLauncherMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException | NullPointerException e) {
      throw new IllegalStateException("Cannot tell where the racetriage agent jar is: " + e, e);
    }
    if (!Files.isRegularFile(location)) {
      throw new IllegalStateException(
          "The racetriage agent must be a packaged jar, but its classes come from " + location
              + ". Build it with 'mvn -pl dynamic-runner/agent package' (./racetriage does this for you).");
    }
    return location;
  }

  /** The launcher's main class, started in every test JVM. */
  public static String launcherMainClass() {
    return TestLauncherMain.class.getName();
  }
}
