package dev.racetriage.runner.triage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What happens when a detection JVM runs out of the heap racetriage sized for it from the baseline JVM's peak: the
 * module's detection runs again without that limit, the first attempt's files are kept beside it, and the user is
 * told. A test that runs out of memory without the agent too (one that tests its own out-of-memory handling) is
 * not a reason to run again.
 */
final class DetectionHeap {
  private static final String OUT_OF_MEMORY = "java.lang.OutOfMemoryError";

  private DetectionHeap() {}

  /**
   * Whether a JVM whose files are under {@code dir} ran out of memory: a test failed with an
   * {@code OutOfMemoryError} ({@code results*.jsonl}) or one was printed ({@code output*.log}: a thread of the
   * program, the agent, or the JVM's own message).
   */
  static boolean outOfMemory(Path dir) {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.filter(DetectionHeap::jvmFile).toList()) {
        if (mentionsOutOfMemory(file)) {
          return true;
        }
      }
    } catch (IOException | UncheckedIOException e) {
      return false; // an unreadable directory only loses the rerun: its warnings still say what happened
    }
    return false;
  }

  private static boolean jvmFile(Path file) {
    String name = file.getFileName().toString();
    return Files.isRegularFile(file) && ((name.startsWith("results") && name.endsWith(".jsonl"))
        || (name.startsWith("output") && name.endsWith(".log")));
  }

  /** Whether the file names an {@code OutOfMemoryError}; an unreadable one does not. */
  static boolean mentionsOutOfMemory(Path file) {
    try (Stream<String> lines = Files.lines(file, StandardCharsets.ISO_8859_1)) { // any bytes: a log is not UTF-8
      return lines.anyMatch(l -> l.contains(OUT_OF_MEMORY));
    } catch (IOException | UncheckedIOException e) {
      return false;
    }
  }

  /**
   * Moves the first attempt's directory out of the way ({@code detect} to {@code detect-heap-limited}; the work
   * directory is emptied when a triage starts, so nothing is there yet).
   */
  static Path setAside(Path dir) throws TriageException {
    Path aside = dir.resolveSibling(dir.getFileName() + "-heap-limited");
    try {
      Files.move(dir, aside);
      return aside;
    } catch (IOException e) {
      throw new TriageException("Could not move " + dir + " aside to run the detection again without its heap "
          + "limit: " + e.getMessage(), e);
    }
  }

  static String rerunWarning(String module, String limit, Optional<String> without, Path firstAttempt) {
    return "The detection JVM of module " + module + " ran out of memory under the heap limit racetriage sized from "
        + "its baseline JVM (" + limit + ": twice the baseline's peak heap plus 256 MB), where the baseline did not; "
        + "its detection ran again " + without.map(x -> "with " + x + " (from the Surefire argLine)")
            .orElse("with the JVM's default heap")
        + ". The first attempt's output is in " + firstAttempt + ".";
  }
}
