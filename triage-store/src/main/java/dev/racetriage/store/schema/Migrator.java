package dev.racetriage.store.schema;

import dev.racetriage.store.sqlite.Database;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Brings a fresh or older racetriage file to the latest schema in one write transaction, so a failed step leaves the
 * file at its previous version. The version is re-read inside the transaction: when two processes open a new file at
 * once, the second finds the work done.
 */
public final class Migrator {
  private final Migrations migrations;

  public Migrator(Migrations migrations) {
    this.migrations = migrations;
  }

  /** Migrates and returns the schema version the file had before. */
  public int migrate(Database database) {
    return database.write("migrate the schema", tx -> {
      int before = (int) tx.queryLong("PRAGMA user_version");
      try (Statement statement = tx.connection().createStatement()) {
        for (Migration step : migrations.after(before)) {
          for (String sql : step.statements()) {
            statement.execute(sql);
          }
          statement.execute("PRAGMA user_version = " + step.version());
        }
        statement.execute("PRAGMA application_id = " + SchemaIdentity.APPLICATION_ID);
      } catch (SQLException e) {
        throw new SQLException("schema migration from version " + before + " failed: " + e.getMessage(), e);
      }
      return before;
    });
  }
}
