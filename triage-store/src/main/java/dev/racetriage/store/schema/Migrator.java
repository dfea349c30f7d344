package dev.racetriage.store.schema;

import dev.racetriage.store.sqlite.Database;
import dev.racetriage.store.sqlite.SqliteErrors;
import dev.racetriage.store.sqlite.Tx;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Brings a fresh or older racetriage file to the latest schema in one write transaction, so a failed step leaves the
 * file at its previous version. The version is re-read inside the transaction: when two processes open a new file at
 * once, the second finds the work done. A file that is already current is only read, so opening it never fails as
 * a "migration" (a read-only or locked file is reported as such by the caller's write check).
 *
 * <p>Steps run with foreign-key enforcement off and every foreign key is checked before the commit (SQLite's
 * procedure for schema changes), so a step may rebuild a table that other tables refer to.
 */
public final class Migrator {
  private final Migrations migrations;

  public Migrator(Migrations migrations) {
    this.migrations = migrations;
  }

  /** Migrates and returns the schema version the file had before. */
  public int migrate(Database database) {
    int current = database.read("read the schema version", Migrator::versionIfIdentified);
    if (current == migrations.latestVersion()) {
      return current;
    }
    return database.writeWithoutForeignKeys("migrate the schema", tx -> {
      int before = (int) tx.queryLong("PRAGMA user_version");
      try (Statement statement = tx.connection().createStatement()) {
        for (Migration step : migrations.after(before)) {
          run(statement, step, before);
          statement.execute("PRAGMA user_version = " + step.version());
        }
        statement.execute("PRAGMA application_id = " + SchemaIdentity.APPLICATION_ID);
      }
      return before;
    });
  }

  /** The file's schema version, or -1 if it does not carry racetriage's identity yet (a fresh file). */
  private static int versionIfIdentified(Tx tx) throws SQLException {
    boolean identified = tx.queryLong("PRAGMA application_id") == SchemaIdentity.APPLICATION_ID;
    return identified ? (int) tx.queryLong("PRAGMA user_version") : -1;
  }

  private static void run(Statement statement, Migration step, int before) throws SQLException {
    List<String> statements = step.statements();
    for (String sql : statements) {
      try {
        statement.execute(sql);
      } catch (SQLException e) {
        if (SqliteErrors.isBusy(e) || SqliteErrors.isReadOnly(e)) {
          throw e; // not the step's fault: the caller reports the file as locked or read-only
        }
        throw new SQLException("schema migration from version " + before + " failed in step " + step.name()
            + ": " + e.getMessage(), e);
      }
    }
  }
}
