package dev.racetriage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.engine.StoreLocation;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.schema.Migrations;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What only a server has: roles that may not write, credentials, a server that is not there, a database that holds
 * other tables, and change polling across connections. Each case against the real server of
 * {@code RACETRIAGE_TEST_PG_URL}; the error a user sees names the URL and what to do, and never a password.
 */
class PostgresStoreTest {
  private static final FieldKey FIELD = FieldKey.parse("com.example.Shared.count");

  @TempDir Path project;
  private String serverUrl;
  private final String token = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());

  @BeforeEach
  void server() {
    serverUrl = TestEngine.serverUrl();
  }

  private StoreLocation.Postgres store(String name) {
    return (StoreLocation.Postgres) TestEngine.POSTGRESQL.location(project, name);
  }

  private static String withUser(String url, String user) {
    return url.replaceAll("([?&])user=[^&]*", "$1user=" + user);
  }

  private static String schemaOf(StoreLocation.Postgres location) {
    return location.url().replaceAll(".*currentSchema=", "");
  }

  @Test
  void aRoleThatMayOnlyReadGetsReadOnlyNamingTheUrlAndTheUserAndCanStillReadTheStore() {
    StoreLocation.Postgres location = store("shared");
    try (TriageStore store = TriageStore.open(location, project)) {
      store.races().upsert(new Race(FIELD, Set.of(RaceKind.WR), List.of(), Set.of("SharedTest#t")), null);
    }
    String role = "reader_" + token;
    String schema = schemaOf(location);
    TestEngine.execute(serverUrl,
        "CREATE ROLE " + role + " LOGIN PASSWORD '" + System.getenv("RACETRIAGE_DB_PASSWORD") + "'",
        "GRANT USAGE ON SCHEMA " + schema + " TO " + role,
        "GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO " + role);
    try {
      StoreLocation readerUrl = StoreLocation.parse(withUser(location.url(), role));
      DatabaseNotWritableException e = assertThrows(DatabaseNotWritableException.class,
          () -> TriageStore.open(readerUrl, project));
      assertEquals(DatabaseNotWritableException.Reason.READ_ONLY, e.reason());
      assertTrue(e.getMessage().startsWith("The triage store " + readerUrl.display() + " is read-only"), e.getMessage());
      assertTrue(e.getMessage().contains("user " + role + " may not write it"), e.getMessage());
      assertTrue(e.getMessage().contains("Grant the user write access"), e.getMessage());
      try (TriageStore reader = TriageStore.openReadOnly(readerUrl, project)) {
        assertTrue(reader.races().find(FIELD).isPresent(), "a read-only role still serves the dashboard");
      }
    } finally {
      TestEngine.execute(serverUrl, "DROP OWNED BY " + role, "DROP ROLE " + role);
    }
  }

  /**
   * Two checkouts, each with its own trusted-benign.json, on one shared store: a checkout whose file is behind (not
   * pulled yet) neither removes a teammate's new mark nor brings back a teammate's reopen.
   */
  @Test
  void eachCheckoutsMirrorFileIsMergedAgainstItsOwnBase() throws Exception {
    Path alice = Files.createDirectory(project.resolve("alice"));
    Path bob = Files.createDirectory(project.resolve("bob"));
    StoreLocation shared = store("team");
    FieldKey x = FieldKey.parse("com.example.X.f");
    FieldKey y = FieldKey.parse("com.example.Y.f");
    try (TriageStore a = TriageStore.open(shared, alice)) {
      a.marks().markTrustedBenign(x, "alice", "lossy by design");
    }
    try (TriageStore b = TriageStore.open(shared, bob)) {
      assertTrue(b.marks().find(x).isPresent(), "bob's file never held X: alice's new mark stays");
      b.marks().markTrustedBenign(y, "bob", "statistics only");
      assertEquals(Set.of(x, y), markedIn(b.marks().mirror().read()));
    }
    try (TriageStore a = TriageStore.open(shared, alice)) {
      assertTrue(a.marks().reopen(x, "alice", "it does corrupt the cache"));
    }
    try (TriageStore b = TriageStore.open(shared, bob)) {
      assertTrue(b.marks().find(x).isEmpty(), "bob's file is behind: it must not bring back alice's reopen");
      assertTrue(b.mirrorSync().imported().isEmpty(), b.mirrorSync().toString());
      b.marks().comment(y, "bob", "still fine");
      assertTrue(b.marks().reopen(y, "bob", "checked again"));
      assertEquals(Set.of(), markedIn(b.marks().mirror().read()), "the next write brings bob's file up to date");
    }
  }

  private static Set<FieldKey> markedIn(List<dev.racetriage.store.marks.TrustedBenignMark> marks) {
    return marks.stream().map(dev.racetriage.store.marks.TrustedBenignMark::field)
        .collect(java.util.stream.Collectors.toSet());
  }

  @Test
  void anUnreachableServerIsNamedWithWhatToCheck() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort(); // closed again: nothing listens there
    }
    StoreLocation location = StoreLocation.parse("jdbc:postgresql://127.0.0.1:" + port + "/races?user=ci");
    StoreException e = assertThrows(StoreException.class, () -> TriageStore.open(location, project));
    assertTrue(e.getMessage().startsWith("cannot reach the PostgreSQL server of the triage store "
        + location.display()), e.getMessage());
    assertTrue(e.getMessage().contains("Check that the server is running"), e.getMessage());
  }

  @Test
  void aWrongPasswordSaysWhereThePasswordComesFromAndNeverShowsIt() {
    String role = "stranger_" + token;
    TestEngine.execute(serverUrl, "CREATE ROLE " + role + " LOGIN PASSWORD 'not-the-test-password'");
    try {
      StoreLocation location = StoreLocation.parse(withUser(store("denied").url(), role));
      StoreException e = assertThrows(StoreException.class, () -> TriageStore.open(location, project));
      assertTrue(e.getMessage().startsWith("PostgreSQL did not let user " + role + " into the triage store "
          + location.display()), e.getMessage());
      assertTrue(e.getMessage().contains("RACETRIAGE_DB_PASSWORD") && e.getMessage().contains("~/.pgpass"),
          e.getMessage());
      assertFalse(e.getMessage().contains(System.getenv("RACETRIAGE_DB_PASSWORD")), e.getMessage());
    } finally {
      TestEngine.execute(serverUrl, "DROP ROLE " + role);
    }
  }

  /** Without RACETRIAGE_DB_PASSWORD, the driver reads ~/.pgpass itself (pgjdbc 42.3+): a real process shows it. */
  @Test
  void withoutTheVariableThePasswordComesFromPgpass() throws Exception {
    StoreLocation.Postgres location = store("pgpass");
    Path home = Files.createDirectory(project.resolve("home"));
    String hostPort = location.url().replaceAll("^jdbc:postgresql://([^/]+)/.*$", "$1");
    Path pgpass = home.resolve(".pgpass");
    Files.writeString(pgpass, hostPort + ":" + location.database() + ":" + location.user() + ":"
        + System.getenv("RACETRIAGE_DB_PASSWORD") + "\n");
    Files.setPosixFilePermissions(pgpass, PosixFilePermissions.fromString("rw-------"));
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
        "-Duser.home=" + home, "-cp", System.getProperty("java.class.path"),
        ConcurrencyWorker.class.getName(), "opener", location.display(), project.toString()));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().remove("RACETRIAGE_DB_PASSWORD");
    builder.environment().remove("PGPASSWORD");
    builder.environment().remove("PGPASSFILE");
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes());
    assertTrue(process.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), output);
    assertTrue(output.contains("opened schema " + Migrations.bundled().latestVersion()), output);
  }

  @Test
  void aSchemaWithOtherTablesIsRefusedAndLeftAsItWas() {
    StoreLocation.Postgres location = store("foreign");
    String schema = schemaOf(location);
    TestEngine.execute(serverUrl, "CREATE TABLE " + schema + ".invoices (id INTEGER)");
    UnusableDatabaseException e = assertThrows(UnusableDatabaseException.class,
        () -> TriageStore.open(location, project));
    assertEquals(UnusableDatabaseException.Reason.FOREIGN, e.reason());
    assertTrue(e.getMessage().contains("holds tables racetriage did not create (invoices)"), e.getMessage());
    assertTrue(e.getMessage().contains("currentSchema=racetriage"), e.getMessage());
    // nothing was created beside the foreign table: opening again gives the same refusal, not a half-made store
    assertThrows(UnusableDatabaseException.class, () -> TriageStore.open(location, project));
  }

  @Test
  void aStoreOfANewerRacetriageIsRefused() {
    StoreLocation.Postgres location = store("newer");
    TriageStore.open(location, project).close();
    TestEngine.execute(serverUrl, "UPDATE " + schemaOf(location) + ".racetriage_schema SET version = 99");
    UnusableDatabaseException e = assertThrows(UnusableDatabaseException.class,
        () -> TriageStore.open(location, project));
    assertEquals(UnusableDatabaseException.Reason.NEWER_SCHEMA, e.reason());
    assertTrue(e.getMessage().contains("schema version 99"), e.getMessage());
  }

  @Test
  void theDataVersionChangesWhenAnotherConnectionCommits() {
    StoreLocation.Postgres location = store("polled");
    try (TriageStore watcher = TriageStore.openReadOnly(openedOnce(location), project);
        TriageStore writer = TriageStore.open(location, project)) {
      long before = watcher.dataVersion();
      writer.races().upsert(new Race(FIELD, Set.of(RaceKind.WW), List.of(), Set.of("SharedTest#t")), null);
      assertNotEquals(before, watcher.dataVersion(), "a commit by another store must change the data version");
      assertTrue(watcher.races().find(FIELD).isPresent());
    }
  }

  @Test
  void sessionsTheServerEndsAreReplacedWithoutAnErrorReachingTheCaller() {
    StoreLocation.Postgres base = store("restarted");
    String application = "rt_" + token;
    StoreLocation location = StoreLocation.parse(base.url() + "&ApplicationName=" + application);
    try (TriageStore store = TriageStore.open(location, project)) {
      store.races().upsert(new Race(FIELD, Set.of(RaceKind.WR), List.of(), Set.of("SharedTest#t")), null);
      store.dataVersion();
      assertTrue(store.races().find(FIELD).isPresent());
      // what a server restart or an administrator does to every session of this store
      long ended = TestEngine.queryLong(serverUrl, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
          + " WHERE application_name = '" + application + "'");
      assertTrue(ended >= 3, "the writer, a reader and the watcher were connected: " + ended);
      store.races().upsert(new Race(FieldKey.parse("com.example.Shared.after"), Set.of(RaceKind.WW), List.of(),
          Set.of("SharedTest#t")), null);
      assertEquals(2, store.races().fields().size());
      store.dataVersion();
    }
  }

  private StoreLocation openedOnce(StoreLocation.Postgres location) {
    TriageStore.open(location, project).close();
    return location;
  }
}
