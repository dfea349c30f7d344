package dev.racetriage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.racetriage.store.runs.Run;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A write that finds the file locked by another connection waits for it instead of failing with "locked". */
class LockedDatabaseTest {
  @TempDir Path project;

  @Test
  void aWriterWaitsForAnotherConnectionsWriteLock() throws Exception {
    Path file = project.resolve("triage.db");
    ExecutorService executor = Executors.newSingleThreadExecutor();
    try (TriageStore store = TriageStore.open(file, project)) {
      CountDownLatch locked = new CountDownLatch(1);
      Future<?> holder = executor.submit(() -> {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
            Statement s = c.createStatement()) {
          s.execute("BEGIN IMMEDIATE");
          s.execute("INSERT INTO run(kind, started_at, status) VALUES ('holder', 0, 'RUNNING')");
          locked.countDown();
          // Another process in the middle of a long unit of work; however long it takes, the store must wait.
          Thread.sleep(500);
          s.execute("COMMIT");
        }
        return null;
      });
      locked.await();
      Run run = store.runs().start("store", null, null);
      holder.get();
      List<Run> runs = store.runs().recent(10);
      assertEquals(List.of("store", "holder"), runs.stream().map(Run::kind).toList());
      assertEquals(runs.get(1).id() + 1, run.id(), "the store's row was written after the holder committed");
    } finally {
      executor.shutdownNow();
    }
  }
}
