package dev.racetriage.store.engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** Runs one statement without parameters, outside the unit-of-work helpers (PRAGMAs, locks, transaction control). */
final class Statements {
  private Statements() {}

  static void execute(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
