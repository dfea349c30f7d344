package dev.racetriage.runner.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.runner.project.ProjectFixtures;
import dev.racetriage.runner.triage.TriageOptions;
import dev.racetriage.runner.triage.TriageProgress;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.runs.Run;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon on a real project: it detects, stores, and detects again when a source file changes. */
class TriageDaemonTest {
  @TempDir Path dir;

  @Test
  void detectsAtStartAndAgainAfterASourceChange() throws Exception {
    ProjectFixtures.writeProjectWithTests(dir, """
          int shared;
          @Test void twoWriters() throws Exception {
            Thread a = new Thread(() -> shared = 1);
            Thread b = new Thread(() -> shared = 2);
            a.start(); b.start(); a.join(); b.join();
          }
        """);
    StringWriter log = new StringWriter();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    TriageDaemon daemon = new TriageDaemon(TriageOptions.defaults(dir), TriageProgress.silent(),
        new PrintWriter(log, true), Duration.ofMillis(200));
    Thread thread = new Thread(() -> {
      try {
        daemon.run(stop::get);
      } catch (Throwable t) {
        failure.set(t);
      }
    }, "daemon-under-test");
    thread.start();
    try {
      Path db = dir.resolve(".racetriage/triage.db");
      awaitDetections(db, 1, log);
      try (TriageStore store = TriageStore.openProject(dir)) {
        assertTrue(store.races().find(FieldKey.parse("demo.BehaviourTest.shared")).isPresent(), log::toString);
      }

      // an edit: the daemon rebuilds and detects again
      Path test = dir.resolve("src/test/java/demo/BehaviourTest.java");
      Files.writeString(test, Files.readString(test).replace("shared = 2", "shared = 3"));
      Files.setLastModifiedTime(test, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 5_000));
      awaitDetections(db, 2, log);
      assertTrue(log.toString().contains("changed: src/test/java/demo/BehaviourTest.java"), log::toString);
    } finally {
      stop.set(true);
      thread.join(60_000);
    }
    assertEquals(null, failure.get());
  }

  private static void awaitDetections(Path db, int count, StringWriter log) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(db)) {
        try (TriageStore store = TriageStore.openProject(db.getParent().getParent())) {
          List<Run> runs = store.runs().recent(20);
          if (runs.stream().filter(r -> r.kind().equals("daemon-detect") && r.finishedAt() != null).count() >= count) return;
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("the daemon did not finish detection " + count + " in time; its log:\n" + log);
  }
}
