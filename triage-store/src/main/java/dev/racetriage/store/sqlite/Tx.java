package dev.racetriage.store.sqlite;

import dev.racetriage.store.engine.Engine;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An open transaction: the connection it runs on, whether it may write, and the clock that stamps rows. Small
 * helpers keep the repositories free of JDBC boilerplate; parameters are bound by type ({@link Instant} as epoch
 * milliseconds, enums by name, booleans as 0/1).
 */
public final class Tx {
  private final Connection connection;
  private final boolean writable;
  private final Clock clock;
  private final Engine engine;

  Tx(Connection connection, boolean writable, Clock clock, Engine engine) {
    this.connection = connection;
    this.writable = writable;
    this.clock = clock;
    this.engine = engine;
  }

  /** The engine this transaction runs on (for the few statements that differ: see {@link Engine}). */
  public Engine engine() {
    return engine;
  }

  public boolean writable() {
    return writable;
  }

  /** The time to stamp on rows written in this unit of work. */
  public Instant now() {
    return clock.instant();
  }

  public Connection connection() {
    return connection;
  }

  public <T> List<T> query(String sql, RowMapper<T> mapper, Object... args) throws SQLException {
    try (PreparedStatement statement = prepare(sql, args);
        ResultSet rows = statement.executeQuery()) {
      List<T> result = new ArrayList<>();
      while (rows.next()) {
        result.add(mapper.map(rows));
      }
      return result;
    }
  }

  public <T> Optional<T> queryOne(String sql, RowMapper<T> mapper, Object... args) throws SQLException {
    List<T> rows = query(sql, mapper, args);
    return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
  }

  public long queryLong(String sql, Object... args) throws SQLException {
    return queryOne(sql, row -> row.getLong(1), args).orElse(0L);
  }

  public int update(String sql, Object... args) throws SQLException {
    requireWritable(sql);
    try (PreparedStatement statement = prepare(sql, args)) {
      return statement.executeUpdate();
    }
  }

  /** Runs an INSERT into a table keyed by {@code id} and returns the id of the new row. */
  public long insert(String sql, Object... args) throws SQLException {
    requireWritable(sql);
    return engine.insert(this, sql, args);
  }

  private void requireWritable(String sql) {
    if (!writable) {
      throw new IllegalStateException("write inside a read-only unit of work: " + sql);
    }
  }

  private PreparedStatement prepare(String sql, Object... args) throws SQLException {
    PreparedStatement statement = connection.prepareStatement(sql);
    try {
      for (int i = 0; i < args.length; i++) {
        bind(statement, i + 1, args[i]);
      }
      return statement;
    } catch (SQLException | RuntimeException e) {
      statement.close();
      throw e;
    }
  }

  private static void bind(PreparedStatement statement, int index, Object value) throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.NULL);
    } else if (value instanceof Instant instant) {
      statement.setLong(index, instant.toEpochMilli());
    } else if (value instanceof Enum<?> constant) {
      statement.setString(index, constant.name());
    } else if (value instanceof Boolean flag) {
      statement.setInt(index, flag ? 1 : 0);
    } else if (value instanceof Integer number) {
      statement.setInt(index, number);
    } else if (value instanceof Long number) {
      statement.setLong(index, number);
    } else if (value instanceof Double number) {
      statement.setDouble(index, number);
    } else if (value instanceof String text) {
      statement.setString(index, text);
    } else {
      statement.setString(index, value.toString());
    }
  }

  /** Reads a nullable epoch-milliseconds column. */
  public static Instant instant(ResultSet row, String column) throws SQLException {
    long millis = row.getLong(column);
    return row.wasNull() ? null : Instant.ofEpochMilli(millis);
  }

  /** Reads a nullable integer column. */
  public static Long nullableLong(ResultSet row, String column) throws SQLException {
    long value = row.getLong(column);
    return row.wasNull() ? null : value;
  }
}
