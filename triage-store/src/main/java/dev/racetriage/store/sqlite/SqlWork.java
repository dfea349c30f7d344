package dev.racetriage.store.sqlite;

import java.sql.SQLException;

/** One unit of work run inside a transaction; may be run again from the start if SQLite reports it busy. */
@FunctionalInterface
public interface SqlWork<T> {
  T run(Tx tx) throws SQLException;
}
