package dev.racetriage.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.candidates.StaticCandidate;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/** Triage databases damaged or locked down the way a disk, a bad copy or a read-only checkout leaves them. */
final class StoreFaults {
  private StoreFaults() {}

  /**
   * A project database that is mostly static-candidate pages (about 400 KB), with 8 KB of random bytes written over
   * its middle: pages that marking never reads, so only a check of the whole file finds the damage.
   */
  static Path damagedDatabase(Path project) throws IOException {
    List<StaticCandidate> candidates = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      candidates.add(new StaticCandidate(FieldKey.parse("com.example.C" + i + ".f"), "src/C" + i + ".java", i + 1,
          0.5, List.of("lossy-counter"), List.of("x".repeat(1200) + i)));
    }
    Path file;
    try (TriageStore store = TriageStore.openProject(project)) {
      store.candidates().replaceAll(candidates);
      file = store.file();
    }
    byte[] garbage = new byte[8192];
    new Random(11).nextBytes(garbage);
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(raf.length() / 2 / 4096 * 4096);
      raf.write(garbage);
    }
    return file;
  }

  /**
   * Makes {@code file} read-only for this process until the returned handle is closed. Root ignores permission bits,
   * so as root the immutable attribute is set ({@code chattr +i}); where that is not permitted (no
   * CAP_LINUX_IMMUTABLE, a file system without it) the test is skipped with the reason.
   */
  static AutoCloseable readOnly(Path file) throws Exception {
    boolean root = "root".equals(System.getProperty("user.name"));
    if (root) {
      Process chattr;
      try {
        chattr = new ProcessBuilder("chattr", "+i", file.toString()).redirectErrorStream(true).start();
      } catch (IOException e) {
        assumeTrue(false, "chattr cannot run here: " + e.getMessage());
        return () -> {};
      }
      String output = new String(chattr.getInputStream().readAllBytes());
      assumeTrue(chattr.waitFor(60, TimeUnit.SECONDS) && chattr.exitValue() == 0,
          "chattr +i is not permitted here: " + output.strip());
    } else {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
    }
    AutoCloseable undo = () -> {
      if (root) {
        new ProcessBuilder("chattr", "-i", file.toString()).inheritIO().start().waitFor();
      } else {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
      }
    };
    if (Files.isWritable(file)) {
      undo.close();
      assumeTrue(false, file + " is still writable for this process; cannot test a read-only file here");
    }
    return undo;
  }
}
