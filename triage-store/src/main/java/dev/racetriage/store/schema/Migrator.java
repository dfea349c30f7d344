package dev.racetriage.store.schema;

import dev.racetriage.store.engine.Engine;
import dev.racetriage.store.sqlite.Database;
import dev.racetriage.store.sqlite.Tx;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Brings a fresh or older racetriage file to the latest schema in one write transaction, so a failed step leaves the
 * file at its previous version. The version is re-read inside the transaction: when two processes open a new file at
 * once, the second finds the work done. A file that is already current is only read, so opening it never fails as
 * a "migration" (a read-only or locked file is reported as such by the caller's write check).
 *
 * <p>One set of steps serves both engines: each is written in SQLite's dialect and the {@link Engine} rewrites it
 * ({@link Engine#ddl}); a step SQLite can only do by rebuilding a table has a PostgreSQL variant
 * ({@link Migration#sqlFor}). On SQLite, steps run with foreign-key enforcement off and every foreign key is checked
 * before the commit (SQLite's procedure for schema changes), so a step may rebuild a table that other tables refer
 * to; on PostgreSQL a session advisory lock keeps a second process out until the first has committed.
 */
public final class Migrator {
  private final Migrations migrations;

  public Migrator(Migrations migrations) {
    this.migrations = migrations;
  }

  /** Migrates and returns the schema version the file had before. */
  public int migrate(Database database) {
    Engine engine = database.engine();
    int current = database.read("read the schema version", engine::schemaVersion);
    if (current == migrations.latestVersion()) {
      return current;
    }
    return database.writeWithoutForeignKeys("migrate the schema", tx -> {
      int before = Math.max(0, engine.schemaVersion(tx));
      try (Statement statement = tx.connection().createStatement()) {
        for (Migration step : migrations.after(before)) {
          run(engine, statement, step, before);
        }
      }
      engine.setSchemaVersion(tx, migrations.latestVersion());
      return before;
    });
  }

  private static void run(Engine engine, Statement statement, Migration step, int before) throws SQLException {
    for (String sql : step.statements(engine.name())) {
      try {
        statement.execute(engine.ddl(sql));
      } catch (SQLException e) {
        if (engine.isRetryable(e) || engine.isNotWritable(e)) {
          throw e; // not the step's fault: the caller reports the store as locked or read-only
        }
        throw new SQLException("schema migration from version " + before + " failed in step " + step.name()
            + ": " + e.getMessage(), e);
      }
    }
  }
}
