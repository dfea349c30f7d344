package dev.racetriage.store;

import dev.racetriage.store.candidates.CandidateRepository;
import dev.racetriage.store.detail.RaceDetail;
import dev.racetriage.store.detail.RaceDetails;
import dev.racetriage.store.marks.MarkMirrorFile;
import dev.racetriage.store.marks.TriageMarks;
import dev.racetriage.store.marks.MirrorSync;
import dev.racetriage.store.queue.WorkQueue;
import dev.racetriage.store.races.RaceRepository;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.runs.RunRepository;
import dev.racetriage.store.schema.FileState;
import dev.racetriage.store.schema.Migrations;
import dev.racetriage.store.schema.Migrator;
import dev.racetriage.store.schema.SchemaInspector;
import dev.racetriage.store.sqlite.Database;
import dev.racetriage.store.trials.TrialRepository;
import dev.racetriage.store.verdicts.VerdictRepository;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The triage database of one project. {@link #open} checks the file (refusing, without writing, anything that is
 * not a racetriage database of a known version), proves that it can be written, creates or migrates the schema,
 * marks the runs of dead processes ABANDONED, and imports the team's committed trusted-benign marks. Each repository
 * call is one transaction; {@link #inTransaction} groups several.
 *
 * <p>Safe to share between threads; several processes (daemon, LSP server, dashboard) may open the same file at
 * once. Close it when done.
 */
public final class TriageStore implements AutoCloseable {
  /** The directory, in a project, that holds the database and the mirror file. */
  public static final String DIRECTORY = ProjectLayout.DIRECTORY;
  public static final String DATABASE_FILE = ProjectLayout.DATABASE_FILE;

  private final Database db;
  private final Path projectDir;
  private final int schemaVersion;
  private final MirrorSync mirrorSync;
  private final RunRepository runs;
  private final CandidateRepository candidates;
  private final RaceRepository races;
  private final TrialRepository trials;
  private final VerdictRepository verdicts;
  private final TriageMarks marks;
  private final WorkQueue queue;
  private final RaceDetails details;
  private final List<Run> abandonedAtOpen;

  private TriageStore(Database db, Path projectDir, int schemaVersion, boolean readOnly) {
    this.db = db;
    this.projectDir = projectDir;
    this.schemaVersion = schemaVersion;
    this.runs = new RunRepository(db);
    this.candidates = new CandidateRepository(db);
    this.races = new RaceRepository(db);
    this.trials = new TrialRepository(db);
    this.verdicts = new VerdictRepository(db);
    this.marks = new TriageMarks(db, MarkMirrorFile.inProject(projectDir));
    this.queue = new WorkQueue(db);
    this.details = new RaceDetails(db);
    // Both write; a read-only store leaves them to the next store opened for writing.
    this.abandonedAtOpen = readOnly ? List.of() : runs.abandonOrphans();
    this.mirrorSync = readOnly ? MirrorSync.none() : marks.syncFromMirror();
  }

  /** {@code <project>/.racetriage/triage.db}. */
  public static Path defaultDatabase(Path projectDir) {
    return ProjectLayout.defaultDatabase(projectDir);
  }

  /** Opens (creating if needed) the project's database at its default place. */
  public static TriageStore openProject(Path projectDir) {
    return open(defaultDatabase(projectDir), projectDir);
  }

  public static TriageStore open(Path dbFile, Path projectDir) {
    return open(dbFile, projectDir, Clock.systemUTC());
  }

  /**
   * Opens {@code dbFile} for {@code projectDir} (whose {@code .racetriage/trusted-benign.json} mirrors the marks).
   * Fails fast: every store is opened for writing (opening itself writes: migrations, abandoned runs, imported
   * marks), so the file is proved writable here, before a caller starts long work, rather than at its first write.
   *
   * @throws UnusableDatabaseException if the file is not a racetriage database, is corrupt, or has a newer schema;
   *     the file is left untouched
   * @throws DatabaseNotWritableException if the file, its directory or its file system is read-only
   *     ({@code READ_ONLY}), or another process holds its write lock for longer than
   *     {@link Database#DEFAULT_LOCK_WAIT} ({@code LOCKED})
   * @throws StoreException if the file cannot be created or read, or the mirror file is invalid
   */
  public static TriageStore open(Path dbFile, Path projectDir, Clock clock) {
    return open(dbFile, projectDir, clock, Database.DEFAULT_LOCK_WAIT);
  }

  /** As {@link #open(Path, Path, Clock)}, waiting at most about {@code lockWait} for another process's write lock. */
  public static TriageStore open(Path dbFile, Path projectDir, Clock clock, Duration lockWait) {
    Path file = dbFile.toAbsolutePath().normalize();
    Path project = projectDir.toAbsolutePath().normalize();
    Migrations migrations = Migrations.bundled();
    SchemaInspector.inspect(file, migrations.latestVersion());
    try {
      Files.createDirectories(file.getParent());
    } catch (IOException e) {
      throw new StoreException("cannot create the directory of the triage database " + file + ": " + e.getMessage(), e);
    }
    ProjectLayout.ignoreDatabaseInGit(project, file);
    Database db = Database.open(file, clock, lockWait);
    try {
      db.requireWritable();
      new Migrator(migrations).migrate(db);
      return new TriageStore(db, project, migrations.latestVersion(), false);
    } catch (RuntimeException e) {
      db.close();
      throw e;
    }
  }

  /**
   * Opens an existing database for reading only, writing nothing at all: no migration, no abandoned runs, no mirror
   * import, no {@code .gitignore} entry (for the dashboard, which only reads until someone triages). Every write
   * through the returned store throws {@link IllegalStateException}; {@link #abandonedAtOpen} and
   * {@link #mirrorSync} are empty.
   *
   * @throws UnusableDatabaseException as {@link #open(Path, Path, Clock)}, and if SQLite's {@code quick_check} finds
   *     the file damaged ({@code CORRUPT}), so that a reader never shows part of a broken file
   * @throws StoreException if there is no racetriage database at {@code dbFile}, or it has an older schema (reading
   *     it would need a migration, which writes: open it once with {@link #open})
   */
  public static TriageStore openReadOnly(Path dbFile, Path projectDir) {
    Path file = dbFile.toAbsolutePath().normalize();
    Migrations migrations = Migrations.bundled();
    FileState state = SchemaInspector.inspect(file, migrations.latestVersion());
    if (state.fresh()) {
      throw new StoreException("there is no triage database at " + file + " yet: run 'racetriage triage' first");
    }
    if (state.version() < migrations.latestVersion()) {
      throw new StoreException(file + " has schema version " + state.version() + " and this racetriage reads version "
          + migrations.latestVersion() + "; it is opened read-only here, so it cannot be upgraded. Run any racetriage "
          + "command that writes to it (e.g. 'racetriage triage') once, then try again.");
    }
    Database db = Database.openReadOnly(file, Clock.systemUTC());
    try {
      requireIntact(db);
      return new TriageStore(db, projectDir.toAbsolutePath().normalize(), state.version(), true);
    } catch (RuntimeException e) {
      db.close();
      throw e;
    }
  }

  /** SQLite's quick_check (every page and b-tree, without comparing indexes to their tables). */
  private static void requireIntact(Database db) {
    List<String> problems = db.read("check the triage database", tx ->
        tx.query("PRAGMA quick_check(5)", row -> row.getString(1)));
    if (!problems.equals(List.of("ok"))) {
      throw new UnusableDatabaseException(db.file(), UnusableDatabaseException.Reason.CORRUPT,
          db.file() + " is corrupt (" + String.join("; ", problems).replaceAll("\\s+", " ") + "). Move it away and run "
              + "racetriage again: a new database is created, verdicts are recomputed by 'racetriage triage', and "
              + "trusted-benign marks are re-imported from .racetriage/trusted-benign.json.", null);
    }
  }

  public Path file() {
    return db.file();
  }

  public Path projectDir() {
    return projectDir;
  }

  /** The schema version of the open file ({@code PRAGMA user_version}). */
  public int schemaVersion() {
    return schemaVersion;
  }

  /**
   * The runs this open marked ABANDONED because their process had died (empty almost always). A command may tell
   * the user, e.g. "run 12 (triage) was abandoned: its process (PID 4242 on host ci-3) is gone".
   */
  public List<Run> abandonedAtOpen() {
    return abandonedAtOpen;
  }

  /** What the mirror file changed in the database when this store was opened (imported and removed marks). */
  public MirrorSync mirrorSync() {
    return mirrorSync;
  }

  public RunRepository runs() {
    return runs;
  }

  public CandidateRepository candidates() {
    return candidates;
  }

  public RaceRepository races() {
    return races;
  }

  public TrialRepository trials() {
    return trials;
  }

  public VerdictRepository verdicts() {
    return verdicts;
  }

  public TriageMarks marks() {
    return marks;
  }

  public WorkQueue queue() {
    return queue;
  }

  /** The shared queue of planned trials (distributed triage and workers). */
  public dev.racetriage.store.queue.TrialQueue trialQueue() {
    return new dev.racetriage.store.queue.TrialQueue(db);
  }

  /** The worker processes that run planned trials. */
  public dev.racetriage.store.workers.WorkerRepository workers() {
    return new dev.racetriage.store.workers.WorkerRepository(db);
  }

  /** Everything about the race on {@code field}, from one snapshot; empty if no race is recorded on it. */
  public Optional<RaceDetail> detail(FieldKey field) {
    return details.of(field);
  }

  /**
   * Runs {@code work} as one write transaction: every repository call it makes on this thread joins it, and all of
   * them commit or roll back together (e.g. a race, its trials and its verdict). {@code work} may be run more than
   * once if another process holds the database for long, so it must have no side effects outside the store.
   */
  public <T> T inTransaction(Supplier<T> work) {
    return db.write("write a unit of work", tx -> work.get());
  }

  /**
   * Changes whenever anything is committed to the database by any process. Poll it (e.g. every second) and reload
   * what is shown when it differs from the last value seen; comparing values from different stores means nothing.
   */
  public long dataVersion() {
    return db.dataVersion();
  }

  @Override
  public void close() {
    db.close();
  }
}
