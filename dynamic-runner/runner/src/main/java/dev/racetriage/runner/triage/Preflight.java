package dev.racetriage.runner.triage;

import dev.racetriage.store.engine.StoreLocation;
import dev.racetriage.store.projectlock.ProjectBusyException;
import dev.racetriage.store.projectlock.ProjectLock;
import dev.racetriage.store.StoreException;
import dev.racetriage.store.TriageStore;
import dev.racetriage.runner.fork.TestSelection;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a triage checks before any long work, so that it fails in seconds rather than after the build and every trial:
 * the project directory, that no other triage or daemon works on the project, and that the store can be written.
 */
public final class Preflight {
  private Preflight() {}

  /** The project's absolute root, which must be a directory with a {@code pom.xml}. */
  public static Path projectRoot(Path project) throws TriageException {
    Path root = project.toAbsolutePath().normalize();
    if (!Files.isDirectory(root)) {
      throw new TriageException(root + " does not exist or is not a directory.");
    }
    String path = root.toString();
    for (int i = 0; i < path.length(); i++) {
      if (Character.isSurrogate(path.charAt(i))) {
        String character = new String(Character.toChars(path.codePointAt(i)));
        throw new TriageException("The project path " + root + " contains '" + character + "', a character the JDK "
            + "cannot load classes from when it is on a class path (\"Error decoding percent encoded characters\"), "
            + "so no test could start. Make a link without it and run racetriage there: ln -s '" + root
            + "' /tmp/project && racetriage triage /tmp/project");
      }
    }
    if (!Files.isRegularFile(root.resolve("pom.xml"))) {
      throw new TriageException(root + " is not a Maven project (no pom.xml). Point racetriage at the directory that "
          + "holds the project's pom.xml.");
    }
    return root;
  }

  /**
   * Takes the project's lock ({@code .racetriage/triage.lock}) for {@code what} ("triage", "daemon"): two runs on one
   * project would build into the same {@code target/} and break each other's builds.
   */
  public static ProjectLock lock(Path root, String what) throws TriageException {
    try {
      return ProjectLock.acquire(root, what);
    } catch (ProjectBusyException e) {
      throw new TriageException(e.getMessage(), e);
    } catch (StoreException e) {
      throw new TriageException("Cannot take the project's lock: " + e.getMessage(), e);
    }
  }

  /** The tests to run: the {@code --tests} pattern, checked before anything runs, or what {@code mvn test} runs. */
  public static TestSelection selection(TriageOptions options) throws TriageException {
    if (options.tests() == null) return TestSelection.ALL;
    try {
      return TestSelection.matching(options.tests());
    } catch (IllegalArgumentException e) {
      throw new TriageException(e.getMessage(), e);
    }
  }

  /** Opens the run's store and proves it can be written (a read-only or locked database fails here, not at the end). */
  public static TriageStore openWritable(TriageOptions options, Path root) throws TriageException {
    try {
      StoreLocation db = options.database() == null
          ? StoreLocation.file(TriageStore.defaultDatabase(root)) : options.database();
      return TriageStore.open(db, root); // proves the store writable: a read-only or locked one fails here
    } catch (StoreException e) {
      throw new TriageException(e.getMessage(), e);
    }
  }
}
