package dev.racetriage.cli;

import dev.racetriage.store.marks.MirrorSync;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * Says what reading trusted-benign.json changed in the database, one line per mark, so that no mark is ever imported
 * or removed without the user seeing it (the audit log keeps the same record).
 */
final class MirrorSyncReport {
  private MirrorSyncReport() {}

  static void print(MirrorSync sync, Path mirrorFile, PrintWriter out) {
    new MirrorSync(sync.imported(), sync.removed(), java.util.List.of()).describe(mirrorFile).forEach(out::println);
  }
}
