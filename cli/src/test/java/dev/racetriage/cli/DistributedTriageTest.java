package dev.racetriage.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racetriage.runner.distribute.UnitResult;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.queue.TrialItem;
import dev.racetriage.store.queue.TrialItemState;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.workers.WorkerRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A distributed triage of examples/racy-shapes as a team runs one: a shared store, two {@code racetriage worker}
 * processes on checkouts of their own, and {@code triage --distribute}. One worker is killed with {@code kill -9}
 * while it holds a unit; its lease runs out, another process runs the unit, and the triage still gives the
 * examples' verdicts (the README's expected column, which the local triage gives), with trials run by several
 * workers, none lost and none stored twice.
 */
class DistributedTriageTest {
  private static final Map<String, String> EXPECTED = Map.of(
      "dev.racetriage.examples.BusyWait.result", "destructive",
      "dev.racetriage.examples.Point.x", "destructive",
      "dev.racetriage.examples.Point.y", "destructive",
      "dev.racetriage.examples.RacyInitLoop.x", "destructive",
      "dev.racetriage.examples.TourSearch.bestLength", "qos",
      "dev.racetriage.examples.BusyWait.done", "benign",
      "dev.racetriage.examples.HashCache.hash", "benign",
      "dev.racetriage.examples.Point.p", "benign",
      "dev.racetriage.examples.VerboseProgress.verbose", "benign");

  @TempDir Path dir;
  private final List<Process> workers = new ArrayList<>();

  @AfterEach
  void stopWorkers() {
    workers.forEach(Process::destroyForcibly);
  }

  @Test
  void twoWorkersAndTheTriageShareTheTrialsAndAKilledWorkerLosesNothing() throws Exception {
    Path project = Examples.copyRacyShapes(dir.resolve("coordinator"));
    Path db = dir.resolve("shared.db");
    Process doomed = worker(Examples.copyRacyShapes(dir.resolve("worker-1")), db, "worker-1.log");
    Process survivor = worker(Examples.copyRacyShapes(dir.resolve("worker-2")), db, "worker-2.log");

    CompletableFuture<CliRun> triage = CompletableFuture.supplyAsync(() -> CliRun.run("triage", project.toString(),
        "--db", db.toString(), "--distribute", "--jobs", "1", "--lease", "5s", "--format", "json"));
    String killedWorker = killWhileItHoldsAUnit(doomed, db);

    CliRun done = triage.get(10, TimeUnit.MINUTES);
    assertEquals(1, done.exitCode(), "destructive races exit 1: " + done.err());
    JsonNode report = new ObjectMapper().readTree(done.out());
    Map<String, String> verdicts = new LinkedHashMap<>();
    report.path("races").forEach(r -> verdicts.put(r.path("field").asText(), r.path("verdict").asText()));
    assertEquals(EXPECTED, verdicts, done.err());

    try (TriageStore store = TriageStore.open(db, project)) {
      Run run = store.runs().lastSucceeded().orElseThrow();
      List<TrialItem> items = store.trialQueue().forRun(run.id());
      assertTrue(items.stream().allMatch(i -> i.state() == TrialItemState.DONE || i.state() == TrialItemState.SKIPPED),
          items::toString);
      assertTrue(items.stream().anyMatch(i -> i.attempts() > 1),
          "the killed worker's unit was claimed again after its lease ran out");
      Map<String, Long> byWorker = store.trialQueue().trialsByWorker(run.id());
      assertTrue(byWorker.keySet().stream().filter(w -> !"null".equals(w)).count() >= 2,
          "trials run by at least two workers: " + byWorker);
      assertTrue(byWorker.containsKey(killedWorker), "the killed worker's stored trials are kept: " + byWorker);
      assertTrue(store.workers().list().stream().map(WorkerRecord::pid).anyMatch(p -> p == survivor.pid()));

      // none lost: every outcome a unit reported is a stored trial of the run; none twice: one trial per inputs key
      Set<String> reported = new HashSet<>();
      for (TrialItem item : items) {
        if (item.state() != TrialItemState.DONE) continue;
        for (UnitResult.Run r : UnitResult.fromJson(item.outcomes()).outcomes()) {
          assertTrue(reported.add(item.fieldKey() + "|" + item.testName() + "|" + r.heuristic() + "|" + r.seed()),
              "an outcome reported twice: " + item.fieldKey() + " " + r.heuristic() + " " + r.seed());
        }
      }
      Set<String> stored = new HashSet<>();
      int storedRows = 0;
      try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
           Statement s = c.createStatement();
           ResultSet rows = s.executeQuery("SELECT f.field_key, t.test, t.heuristic, t.seed, t.inputs_key FROM trial t"
               + " JOIN race r ON r.id = t.race_id JOIN field f ON f.id = r.field_id WHERE t.run_id = " + run.id())) {
        Set<String> keys = new HashSet<>();
        while (rows.next()) {
          storedRows++;
          assertTrue(keys.add(rows.getString(5)), "a trial stored twice: " + rows.getString(1));
          stored.add(rows.getString(1) + "|" + rows.getString(2) + "|" + rows.getString(3) + "|" + rows.getLong(4));
        }
      }
      assertEquals(reported, stored, "the units' outcomes are exactly the stored trials");
      assertEquals(reported.size(), storedRows);
    }
    assertTrue(survivor.waitFor(3, TimeUnit.MINUTES), "the surviving worker exits once idle");
    assertEquals(0, survivor.exitValue(), Files.readString(dir.resolve("worker-2.log")));
  }

  /** Waits until the worker holds a unit and has stored a trial of it, then kills it with SIGKILL; its worker id. */
  private String killWhileItHoldsAUnit(Process worker, Path db) throws Exception {
    Instant until = Instant.now().plus(Duration.ofMinutes(5));
    while (Instant.now().isBefore(until)) {
      Optional<String> holding = holdingWithTrials(db, worker.pid());
      if (holding.isPresent()) {
        worker.destroyForcibly(); // SIGKILL: no shutdown hook, no release
        worker.waitFor();
        return holding.get();
      }
      assertTrue(worker.isAlive(), "the worker ended early: " + Files.readString(dir.resolve("worker-1.log")));
      Thread.sleep(100);
    }
    throw new AssertionError("worker-1 never held a unit: " + Files.readString(dir.resolve("worker-1.log")));
  }

  private static Optional<String> holdingWithTrials(Path db, long pid) throws Exception {
    if (!Files.exists(db)) return Optional.empty();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
         Statement s = c.createStatement();
         ResultSet rows = s.executeQuery("SELECT w.id FROM worker w WHERE w.pid = " + pid
             + " AND EXISTS (SELECT 1 FROM trial_item q WHERE q.claimed_by = w.id AND q.state = 'CLAIMED')"
             + " AND EXISTS (SELECT 1 FROM trial t WHERE t.worker = w.id)")) {
      return rows.next() ? Optional.of(rows.getString(1)) : Optional.empty();
    } catch (java.sql.SQLException e) {
      return Optional.empty(); // the schema is not there yet
    }
  }

  private Process worker(Path checkout, Path db, String log) throws IOException {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), RacetriageCommand.class.getName(),
        "worker", checkout.toString(), "--db", db.toString(), "--jobs", "1", "--lease", "5s",
        "--exit-when-idle", "60s")
        .redirectErrorStream(true).redirectOutput(dir.resolve(log).toFile()).start();
    workers.add(p);
    return p;
  }
}
