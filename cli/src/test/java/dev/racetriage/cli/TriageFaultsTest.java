package dev.racetriage.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.runs.RunStatus;
import dev.racetriage.store.verdicts.VerdictRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code racetriage triage} as a separate process, killed, run twice at once, pointed at a hanging or chatty test or a
 * read-only database: it loses at most the trial that was running, never leaves a run RUNNING, and says what is wrong.
 * Every process here is real (the CLI in a forked JVM, Maven, test JVMs); nothing is timed, only waited for.
 */
class TriageFaultsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration PATIENCE = Duration.ofMinutes(6);

  @TempDir Path dir;

  @Test
  void aTriageKilledMidTrialsIsResumedWithItsFinishedTrialsAndTheSameVerdicts() throws Exception {
    Path project = FaultFixtures.busyWait(dir.resolve("busy"));
    String[] trialArgs = {"--no-early-stop", "--trials", "4", "--heuristics", "sc,oldest", "--jvm-per-trial",
        "--detect-runs", "1", "--jobs", "1"};

    CliProcess first = CliProcess.start(project, concat(new String[] {"triage", project.toString()}, trialArgs));
    assertEquals(1, first.waitFor(PATIENCE), first.output()); // a destructive race: exit 1
    Map<String, String> verdicts = verdicts(project);
    assertEquals("DESTRUCTIVE", verdicts.get("demo.BusyWait.result"), verdicts.toString());

    long firstRun = latestRun(project);
    CliProcess killed = CliProcess.start(project, concat(new String[] {"triage", project.toString()}, trialArgs));
    waitUntil(() -> latestRun(project) > firstRun && trialsOfRun(project, latestRun(project)) >= 3,
        "three trials of the second run are stored");
    killed.kill9();
    long stored = trialsOfRun(project, latestRun(project));
    assertTrue(stored < 16, "the second run was killed before its last trial (" + stored + " stored)");

    CliProcess resumed = CliProcess.start(project, concat(new String[] {"triage", project.toString()}, trialArgs));
    assertEquals(1, resumed.waitFor(PATIENCE), resumed.output());
    assertTrue(resumed.output().contains("Reused " + stored + " trial(s)"), "reuse of the " + stored
        + " stored trials is reported:\n" + resumed.output());
    assertEquals(verdicts, verdicts(project), "the resumed triage ends with the same verdicts");
    assertEquals(List.of(RunStatus.SUCCEEDED, RunStatus.ABANDONED, RunStatus.SUCCEEDED), statuses(project));
  }

  @Test
  void aKillInTheStorePhaseLeavesTheOldVerdictsAndNoRunningRun() throws Exception {
    Path project = FaultFixtures.busyWait(dir.resolve("store"));
    CliProcess first = CliProcess.start(project, "triage", project.toString(), "--trials", "2", "--heuristics",
        "sc,oldest", "--detect-runs", "1");
    assertEquals(1, first.waitFor(PATIENCE), first.output());
    String before = verdictHistory(project);

    // the fault-injection point holds the store phase's transaction open after the first race's verdict
    CliProcess killed = CliProcess.start(project, Map.of("RACETRIAGE_FAULT_PAUSE_IN_STORE", "600000"),
        "triage", project.toString(), "--trials", "2", "--heuristics", "sc,oldest", "--detect-runs", "1");
    waitUntil(() -> killed.output().contains("racetriage: fault injection: pausing in the store phase"),
        "the second triage reaches its store phase");
    killed.kill9();

    assertEquals(before, verdictHistory(project), "every race keeps its old verdict");
    List<RunStatus> statuses = statuses(project);
    assertFalse(statuses.contains(RunStatus.RUNNING), statuses.toString());
    assertEquals(RunStatus.ABANDONED, statuses.get(statuses.size() - 1));
  }

  @Test
  void aHangingTestIsReportedHungWhileTheOtherTestsRacesAreReported() throws Exception {
    Path project = FaultFixtures.hangingAndRacy(dir.resolve("hang"));
    Path report = dir.resolve("hang.json");
    CliProcess run = CliProcess.start(project, "triage", project.toString(), "--detect-only", "--detect-runs", "1",
        "--test-timeout", "20s", "--format", "json", "--out", report.toString());
    assertEquals(0, run.waitFor(PATIENCE), run.output());
    JsonNode json = JSON.readTree(Files.readString(report));
    assertEquals("demo.Counter.hits", json.path("races").get(0).path("field").asText(), json::toPrettyString);
    JsonNode hung = json.path("hungTests");
    assertEquals(1, hung.size(), json::toPrettyString);
    assertEquals("demo.HangTest#sleepsForever", hung.get(0).path("test").asText());
    assertEquals(20_000, hung.get(0).path("limitMillis").asLong());
    assertTrue(hung.get(0).path("threads").asText().contains("Thread.sleep"), hung::toPrettyString);
    assertTrue(run.output().contains("demo.HangTest#sleepsForever") && run.output().contains("hung"), run.output());
  }

  @Test
  void aTestPrintingFiftyMegabytesLeavesLessThanTenInTheWorkDirectory() throws Exception {
    Path project = FaultFixtures.chattyAndRacy(dir.resolve("chatty"));
    CliProcess run = CliProcess.start(project, "triage", project.toString(), "--trials", "3", "--heuristics",
        "sc,oldest", "--detect-runs", "1");
    int exit = run.waitFor(PATIENCE);
    assertTrue(exit == 0 || exit == 1, run.output());
    long bytes = size(project.resolve(".racetriage/work"));
    assertTrue(bytes < 10L << 20, "work files: " + bytes + " bytes");
  }

  @Test
  void aSecondTriageOfTheSameProjectIsToldAnotherIsRunning() throws Exception {
    Path project = FaultFixtures.hangingAndRacy(dir.resolve("twice"));
    CliProcess first = CliProcess.start(project, "triage", project.toString(), "--detect-only", "--test-timeout",
        "10m");
    try {
      Path lock = project.resolve(".racetriage/triage.lock");
      waitUntil(() -> Files.isRegularFile(lock) && read(lock).contains(Long.toString(first.pid())),
          "the first triage holds the project's lock");
      CliProcess second = CliProcess.start(project, "triage", project.toString(), "--detect-only");
      assertEquals(2, second.waitFor(PATIENCE), second.output());
      assertTrue(second.output().contains("another triage (PID " + first.pid()), second.output());
    } finally {
      first.kill9();
    }
  }

  @Test
  void aReadOnlyDatabaseFailsBeforeTheBuild() throws Exception {
    Path project = FaultFixtures.busyWait(dir.resolve("readonly"));
    Path db = project.resolve(".racetriage/triage.db");
    try (TriageStore store = TriageStore.openProject(project)) {
      store.runs().recent(1); // creates the database
    }
    assumeTrue(immutable(db, true), "chattr +i is not available here (not root, or the file system has no such flag)");
    try {
      CliProcess run = CliProcess.start(project, "triage", project.toString());
      assertEquals(2, run.waitFor(PATIENCE), run.output());
      assertTrue(run.output().contains("read-only"), run.output());
      assertFalse(run.output().contains("migrate"), run.output());
      assertFalse(Files.exists(project.resolve("target")), "nothing was built");
    } finally {
      immutable(db, false);
    }
  }

  // --- helpers ---------------------------------------------------------------------------------------------

  private static boolean immutable(Path file, boolean on) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("chattr", on ? "+i" : "-i", file.toString()).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor() == 0 && (!on || !Files.isWritable(file) || !canAppend(file));
  }

  private static boolean canAppend(Path file) {
    try {
      Files.newOutputStream(file, java.nio.file.StandardOpenOption.APPEND).close();
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static String[] concat(String[] a, String[] b) {
    String[] all = new String[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "";
    }
  }

  private static long size(Path dir) throws IOException {
    if (!Files.exists(dir)) return 0;
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    }
  }

  private static void waitUntil(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) throw new AssertionError("gave up waiting until " + what);
      Thread.sleep(200);
    }
  }

  /** Reads the database with plain JDBC (no store: opening one would mark the killed run abandoned). */
  private static <T> T sql(Path project, String query, T none, SqlRead<T> read) {
    Path db = project.resolve(".racetriage/triage.db");
    if (!Files.exists(db)) return none;
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db + "?open_mode=1");
         ResultSet rows = c.createStatement().executeQuery(query)) {
      return read.read(rows);
    } catch (Exception e) {
      return none; // not created yet, or busy: ask again
    }
  }

  private interface SqlRead<T> {
    T read(ResultSet rows) throws Exception;
  }

  private static long latestRun(Path project) {
    return sql(project, "SELECT max(id) FROM run", -1L, rows -> rows.next() ? rows.getLong(1) : -1L);
  }

  private static long trialsOfRun(Path project, long run) {
    return sql(project, "SELECT count(*) FROM trial WHERE run_id = " + run, 0L, rows -> rows.next() ? rows.getLong(1) : 0L);
  }

  private static Map<String, String> verdicts(Path project) {
    Map<String, String> verdicts = new TreeMap<>();
    try (TriageStore store = TriageStore.openProject(project)) {
      for (String field : List.of("demo.BusyWait.result", "demo.BusyWait.done")) {
        store.verdicts().current(FieldKey.parse(field)).ifPresent(v -> verdicts.put(field, v.verdict().name()));
      }
    }
    return verdicts;
  }

  private static String verdictHistory(Path project) {
    try (TriageStore store = TriageStore.openProject(project)) {
      StringBuilder s = new StringBuilder();
      for (String field : List.of("demo.BusyWait.result", "demo.BusyWait.done")) {
        for (VerdictRecord r : store.verdicts().history(FieldKey.parse(field))) {
          s.append(field).append(' ').append(r.verdict()).append(' ').append(r.runId()).append('\n');
        }
      }
      return s.toString();
    }
  }

  /** The runs' statuses, oldest first, as the next open of the store sees them. */
  private static List<RunStatus> statuses(Path project) {
    try (TriageStore store = TriageStore.openProject(project)) {
      List<RunStatus> statuses = new ArrayList<>();
      List<Run> runs = new ArrayList<>(store.runs().recent(100));
      java.util.Collections.reverse(runs);
      runs.forEach(r -> statuses.add(r.status()));
      return statuses;
    }
  }

  /** The CLI in a JVM of its own, its stdout and stderr captured in a file. */
  static final class CliProcess {
    private final Process process;
    private final Path log;

    private CliProcess(Process process, Path log) {
      this.process = process;
      this.log = log;
    }

    static CliProcess start(Path project, String... args) throws IOException {
      return start(project, Map.of(), args);
    }

    static CliProcess start(Path project, Map<String, String> env, String... args) throws IOException {
      List<String> command = new ArrayList<>(List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), RacetriageCommand.class.getName()));
      command.addAll(List.of(args));
      Path log = Files.createTempFile(project.getParent(), "cli", ".log");
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(log.toFile());
      builder.environment().putAll(env);
      return new CliProcess(builder.start(), log);
    }

    long pid() {
      return process.pid();
    }

    int waitFor(Duration patience) throws InterruptedException {
      if (!process.waitFor(patience.toMillis(), TimeUnit.MILLISECONDS)) {
        kill9();
        throw new AssertionError("racetriage did not finish in " + patience + ":\n" + output());
      }
      return process.exitValue();
    }

    /** kill -9 of the CLI and of every process it started (Maven, test JVMs), as a killed terminal would do. */
    void kill9() throws InterruptedException {
      List<ProcessHandle> all = new ArrayList<>();
      all.add(process.toHandle());
      process.descendants().forEach(all::add);
      all.forEach(ProcessHandle::destroyForcibly);
      process.waitFor(30, TimeUnit.SECONDS);
    }

    String output() {
      return read(log);
    }
  }
}
