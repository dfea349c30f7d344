package dev.racetriage.store;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Makes files and directories really read-only for this process, and writable again on {@link #close}. Permission
 * bits are enough for an ordinary user but not for root, which CI often is: root ignores them. For root the
 * immutable attribute ({@code chattr +i}) is used, which binds root too; it needs CAP_LINUX_IMMUTABLE and a file
 * system that supports it (ext4, xfs, btrfs), which a default Docker container lacks. Where neither works, the test
 * is skipped with the reason; {@code WriteAccessTest} covers the translation of SQLite's read-only error everywhere.
 */
final class ReadOnlyPaths implements AutoCloseable {
  private final List<Path> locked = new ArrayList<>();
  private final boolean root = "root".equals(System.getProperty("user.name"));

  void makeReadOnly(Path path) throws Exception {
    if (root) {
      run("chattr", "+i", path.toString());
    } else {
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(Files.isDirectory(path) ? "r-xr-xr-x" : "r--r--r--"));
    }
    locked.add(path);
    assumeTrue(!Files.isWritable(path), path + " is still writable for this process; cannot test a read-only file here");
  }

  private static void run(String... command) throws Exception {
    Process process;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      assumeTrue(false, String.join(" ", command) + " cannot run here: " + e.getMessage());
      return;
    }
    String output = new String(process.getInputStream().readAllBytes());
    assumeTrue(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0,
        String.join(" ", command) + " is not permitted here: " + output.strip());
  }

  @Override
  public void close() throws Exception {
    for (Path path : locked) {
      if (root) {
        new ProcessBuilder("chattr", "-i", path.toString()).inheritIO().start().waitFor();
      } else {
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--"));
      }
    }
  }
}
