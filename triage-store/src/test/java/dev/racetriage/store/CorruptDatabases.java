package dev.racetriage.store;

import dev.racetriage.store.candidates.StaticCandidate;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Good racetriage databases, then damaged the way a disk or a bad copy damages them. */
final class CorruptDatabases {
  private CorruptDatabases() {}

  /** A database whose file is mostly the static candidates' pages (about 400 KB), closed and checkpointed. */
  static void populate(Path file, Path project) {
    List<StaticCandidate> candidates = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      candidates.add(new StaticCandidate(FieldKey.parse("com.example.C" + i + ".f"), "src/C" + i + ".java", i + 1,
          0.5, List.of("lossy-counter"), List.of("x".repeat(1200) + i)));
    }
    try (TriageStore store = TriageStore.open(file, project)) {
      store.candidates().replaceAll(candidates);
    }
  }

  /** Writes {@code length} random bytes at the middle of the file, page-aligned. */
  static void overwriteMiddle(Path file, int length, long seed) throws Exception {
    long size = Files.size(file);
    long offset = (size / 2) / 4096 * 4096;
    if (offset < 3 * 4096 || offset + length > size) {
      throw new IllegalStateException(file + " is too small to damage its middle: " + size + " bytes");
    }
    byte[] garbage = new byte[length];
    new Random(seed).nextBytes(garbage);
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(offset);
      raf.write(garbage);
    }
  }
}
