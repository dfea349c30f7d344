package dev.racetriage.store.sqlite;

import java.sql.SQLException;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** Classifies SQLite failures by their primary result code (the low byte of the extended code). */
public final class SqliteErrors {
  private SqliteErrors() {}

  public static boolean isBusy(Throwable error) {
    return primaryCode(error) == SQLiteErrorCode.SQLITE_BUSY.code
        || primaryCode(error) == SQLiteErrorCode.SQLITE_LOCKED.code;
  }

  public static boolean isCorrupt(Throwable error) {
    return primaryCode(error) == SQLiteErrorCode.SQLITE_CORRUPT.code;
  }

  public static boolean isNotADatabase(Throwable error) {
    return primaryCode(error) == SQLiteErrorCode.SQLITE_NOTADB.code;
  }

  public static boolean isReadOnly(Throwable error) {
    return primaryCode(error) == SQLiteErrorCode.SQLITE_READONLY.code;
  }

  public static boolean isCantOpen(Throwable error) {
    return primaryCode(error) == SQLiteErrorCode.SQLITE_CANTOPEN.code;
  }

  private static int primaryCode(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof SQLiteException sqlite) {
        return sqlite.getResultCode().code & 0xff;
      }
      if (t instanceof SQLException sql && sql.getErrorCode() != 0) {
        return sql.getErrorCode() & 0xff;
      }
    }
    return -1;
  }
}
