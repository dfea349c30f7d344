package dev.racetriage.store;

import dev.racetriage.store.engine.StoreLocation;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The engines the store's tests run on; a test class is parameterised with them
 * ({@code @ParameterizedClass @EnumSource(TestEngine.class)}), so the same tests run against an SQLite file and
 * against PostgreSQL. The PostgreSQL server is {@value #URL_VARIABLE} (its password in
 * {@code RACETRIAGE_DB_PASSWORD}); each test's store is a schema of its own there. Without the variable the
 * PostgreSQL runs are skipped, naming the script that starts a server — and fail when {@code CI} is set, so CI
 * cannot pass without them.
 */
public enum TestEngine {
  SQLITE,
  POSTGRESQL;

  public static final String URL_VARIABLE = "RACETRIAGE_TEST_PG_URL";
  private static final Map<Path, String> TOKENS = new ConcurrentHashMap<>();
  private static final Set<String> SCHEMAS = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(TestEngine::dropSchemas, "drop test schemas"));
  }

  /**
   * Where the store called {@code name} of the test whose temporary directory is {@code dir} lives: the file
   * {@code dir/name}, or a PostgreSQL schema made for this directory and name. The same directory and name give the
   * same store (a second process or a reopen finds it); another directory, another store.
   */
  public StoreLocation location(Path dir, String name) {
    if (this == SQLITE) {
      return StoreLocation.file(dir.resolve(name));
    }
    String token = TOKENS.computeIfAbsent(dir.toAbsolutePath().normalize(),
        d -> HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()));
    String schema = "t_" + token + "_" + name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "_");
    String url = serverUrl();
    if (SCHEMAS.add(schema)) {
      execute(url, "CREATE SCHEMA " + schema);
    }
    return StoreLocation.parse(url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema);
  }

  /** Skips this engine's run when its server is not there (fails instead under CI). */
  public void requireAvailable() {
    if (this == POSTGRESQL) {
      serverUrl();
    }
  }

  /** {@value #URL_VARIABLE}, or the test is skipped (failed under CI) saying how to start a server. */
  public static String serverUrl() {
    String url = System.getenv(URL_VARIABLE);
    if (url == null || url.isBlank()) {
      String how = URL_VARIABLE + " is not set, so the store's tests did not run against PostgreSQL; start a "
          + "throwaway server with: eval \"$(.ci/postgres.sh start)\" (from the repository root)";
      if (System.getenv("CI") != null) {
        Assertions.fail(how + " — under CI (CI is set) these tests must run: .ci/run sources .ci/postgres.sh");
      }
      Assumptions.abort(how);
    }
    return url;
  }

  /** Runs {@code sql} on the server of {@code url} with the test password (for setting up roles and schemas). */
  public static void execute(String url, String... sql) {
    try (Connection connection = connect(url); Statement statement = connection.createStatement()) {
      for (String each : sql) {
        statement.execute(each);
      }
    } catch (SQLException e) {
      throw new AssertionError("cannot set up the PostgreSQL test store at " + url + ": " + e.getMessage(), e);
    }
  }

  /** The first column of the first row {@code sql} returns on the server of {@code url}. */
  public static long queryLong(String url, String sql) {
    try (Connection connection = connect(url); Statement statement = connection.createStatement();
        var row = statement.executeQuery(sql)) {
      row.next();
      return row.getLong(1);
    } catch (SQLException e) {
      throw new AssertionError("cannot query the PostgreSQL test server at " + url + ": " + e.getMessage(), e);
    }
  }

  private static Connection connect(String url) throws SQLException {
    Properties properties = new Properties();
    String password = System.getenv(StoreLocation.Postgres.PASSWORD_VARIABLE);
    if (password != null) {
      properties.setProperty("password", password);
    }
    return new org.postgresql.Driver().connect(url, properties);
  }

  private static void dropSchemas() {
    String url = System.getenv(URL_VARIABLE);
    if (url == null || SCHEMAS.isEmpty()) {
      return;
    }
    try (Connection connection = connect(url); Statement statement = connection.createStatement()) {
      for (String schema : SCHEMAS) {
        statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      }
    } catch (SQLException e) {
      // a throwaway server: what is left goes with it
    }
  }
}
