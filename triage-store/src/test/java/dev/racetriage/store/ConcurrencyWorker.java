package dev.racetriage.store;

import dev.racetriage.store.engine.StoreLocation;
import dev.racetriage.store.queue.WorkItem;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.AccessType;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.races.RaceQuery;
import dev.racetriage.store.races.RaceSort;
import dev.racetriage.store.races.RaceSummary;
import dev.racetriage.store.runs.RunStatus;
import dev.racetriage.store.trials.Trial;
import dev.racetriage.store.trials.TrialOutcome;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.Verdict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A child JVM of {@link ConcurrentProcessesTest}: a writer that records races as units of work, a reader that checks
 * every snapshot it sees is made of whole units of work, or a queue claimer. Exits 0 on success; any exception
 * (a "database is locked" included) exits non-zero with its stack trace on stderr.
 */
public final class ConcurrencyWorker {
  static final String WRITER_DONE = "writer-done";
  static final int TRIALS_PER_RACE = 3;

  public static void main(String[] args) throws Exception {
    String role = args[0];
    StoreLocation db = StoreLocation.parse(args[1]);
    Path project = Path.of(args[2]);
    switch (role) {
      case "writer" -> write(db, project, Integer.parseInt(args[3]));
      case "reader" -> read(db, project, Integer.parseInt(args[3]));
      case "claimer" -> claim(db, project, args[3]);
      case "marker" -> mark(db, project, args[3]);
      case "holder" -> holdWriteLock(db.fileOrNull());
      case "trialer" -> addTrialsThenHang(db, project, Integer.parseInt(args[3]));
      case "opener" -> {
        try (TriageStore store = TriageStore.open(db, project)) {
          System.out.println("opened schema " + store.schemaVersion());
        }
      }
      default -> throw new IllegalArgumentException(role);
    }
  }

  static FieldKey field(int i) {
    return FieldKey.parse(String.format("com.example.W%d.f%04d", i % 7, i));
  }

  /** Each race, its trials and its verdict are one transaction, so no reader may see a race without them. */
  private static void write(StoreLocation db, Path project, int races) {
    try (TriageStore store = TriageStore.open(db, project)) {
      var run = store.runs().start("writer", null, null);
      for (int n = 0; n < races; n++) {
        int i = n;
        FieldKey field = field(i);
        store.inTransaction(() -> {
          store.races().upsert(new Race(field, Set.of(RaceKind.WR),
              List.of(new AccessSite(AccessType.WRITE, "t1", "W.java", i, List.of("W.run(W.java:" + i + ")"))),
              Set.of("WTest#t" + i)), run.id());
          List<Trial> trials = new ArrayList<>();
          for (int t = 0; t < TRIALS_PER_RACE; t++) {
            trials.add(new Trial(field, "WTest#t" + i, t == 0 ? "sc" : "oldest", t, TrialOutcome.PASS,
                Duration.ofMillis(10), 10, t, null));
          }
          store.trials().addAll(trials, run.id());
          store.verdicts().set(field, Verdict.BENIGN, Evidence.of("written by " + ProcessHandle.current().pid()),
              run.id());
          return null;
        });
      }
      store.runs().finish(run.id(), RunStatus.SUCCEEDED, WRITER_DONE, null);
    }
    System.out.println("wrote " + races);
  }

  private static void read(StoreLocation db, Path project, int races) {
    int snapshots = 0;
    int lastSeen = 0;
    try (TriageStore store = TriageStore.open(db, project)) {
      boolean writerDone = false;
      while (!writerDone) {
        writerDone = store.runs().lastSucceeded().map(r -> WRITER_DONE.equals(r.message())).orElse(false);
        Page<RaceSummary> page = store.races().list(
            RaceQuery.all().sortedBy(RaceSort.FIELD, false).page(0, RaceQuery.MAX_LIMIT));
        if (page.total() != page.items().size()) {
          throw new AssertionError("count " + page.total() + " but " + page.items().size() + " rows in one snapshot");
        }
        if (page.total() < lastSeen) {
          throw new AssertionError("races went from " + lastSeen + " to " + page.total());
        }
        lastSeen = (int) page.total();
        for (RaceSummary race : page.items()) {
          if (race.trials() != TRIALS_PER_RACE || race.verdict() != Verdict.BENIGN || race.tests() != 1) {
            throw new AssertionError("saw half a unit of work: " + race);
          }
        }
        if (!page.items().isEmpty()) {
          FieldKey newest = page.items().get(page.items().size() - 1).field();
          var detail = store.detail(newest).orElseThrow();
          if (detail.verdictHistory().size() != 1 || detail.trialsByHeuristic().get("oldest").size() != 2) {
            throw new AssertionError("inconsistent detail of " + newest + ": " + detail);
          }
        }
        store.races().counts();
        snapshots++;
      }
      if (lastSeen != races) {
        throw new AssertionError("writer finished but reader sees " + lastSeen + " of " + races + " races");
      }
    }
    System.out.println("snapshots " + snapshots);
  }

  /** Marks and reopens fields of its own; the mirror file must end up with exactly the surviving marks of both. */
  private static void mark(StoreLocation db, Path project, String who) {
    try (TriageStore store = TriageStore.open(db, project)) {
      for (int i = 0; i < MARKS_PER_MARKER; i++) {
        store.marks().markTrustedBenign(markedField(who, i), who, "note " + i);
      }
      for (int i = 0; i < MARKS_PER_MARKER; i += 2) {
        store.marks().reopen(markedField(who, i), who, "reopened " + i);
      }
    }
    System.out.println("marked");
  }

  static final String HOLDING = "holding";

  /**
   * Takes the file's write lock as another racetriage process in a long unit of work would, says so, and keeps it
   * until its stdin is closed or it is killed.
   */
  private static void holdWriteLock(Path db) throws Exception {
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
        java.sql.Statement s = c.createStatement()) {
      s.execute("BEGIN IMMEDIATE");
      s.execute("INSERT INTO run(kind, started_at, status) VALUES ('holder', 0, 'SUCCEEDED')");
      System.out.println(HOLDING);
      System.out.flush();
      System.in.read();
      s.execute("ROLLBACK");
    }
  }

  static final FieldKey TRIAL_FIELD = FieldKey.parse("com.example.Resumed.flag");
  static final String TRIALS_ADDED = "trials-added";

  /** The inputs key of planned cell {@code i}, as a runner would compute it. */
  static String inputsKey(int i) {
    return dev.racetriage.store.trials.InputsKey.of("fp-1", "agent-0.1", TRIAL_FIELD.toString(), "ResumedTest#t",
        "oldest", String.valueOf(i), "[0]");
  }

  /** A triage that persists {@code count} trials as they finish and then hangs until it is killed. */
  private static void addTrialsThenHang(StoreLocation db, Path project, int count) throws Exception {
    try (TriageStore store = TriageStore.open(db, project)) {
      var run = store.runs().start("triage", null, "fp-1");
      store.races().upsert(new Race(TRIAL_FIELD, Set.of(RaceKind.WR), List.of(), Set.of("ResumedTest#t")), run.id());
      for (int i = 0; i < count; i++) {
        store.trials().add(new Trial(TRIAL_FIELD, "ResumedTest#t", "oldest", i, TrialOutcome.FAIL,
            Duration.ofMillis(100), 10, 3, "AssertionError"), run.id(), inputsKey(i));
      }
      System.out.println(TRIALS_ADDED);
      System.out.flush();
      System.in.read();
    }
  }

  static final int MARKS_PER_MARKER = 30;

  static FieldKey markedField(String who, int i) {
    return FieldKey.parse("com.example." + who + ".f" + i);
  }

  private static void claim(StoreLocation db, Path project, String claimer) {
    List<Long> claimed = new ArrayList<>();
    try (TriageStore store = TriageStore.open(db, project)) {
      for (WorkItem item; (item = store.queue().claimNext(claimer, Duration.ofMinutes(5)).orElse(null)) != null; ) {
        if (!store.queue().complete(item.id(), claimer)) {
          throw new AssertionError(claimer + " lost item " + item.id() + " it had just claimed");
        }
        claimed.add(item.id());
      }
    }
    StringBuilder out = new StringBuilder("claimed");
    claimed.forEach(id -> out.append(' ').append(id));
    System.out.println(out);
  }
}
