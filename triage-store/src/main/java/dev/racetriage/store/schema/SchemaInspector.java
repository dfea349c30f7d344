package dev.racetriage.store.schema;

import dev.racetriage.store.StoreException;
import dev.racetriage.store.UnusableDatabaseException;
import dev.racetriage.store.UnusableDatabaseException.Reason;
import dev.racetriage.store.sqlite.SqliteErrors;
import dev.racetriage.store.sqlite.WriteAccess;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sqlite.SQLiteConfig;

/**
 * Decides, without writing a byte, whether a file may be used as a racetriage database. The file is checked for the
 * SQLite header and then opened read-only; only an empty or absent file, an SQLite file with no tables and no
 * identity, or a file carrying racetriage's application id at a known schema version passes.
 */
public final class SchemaInspector {
  private static final byte[] SQLITE_HEADER = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
  private static final int HEADER_SIZE = 100;
  private static final int USER_VERSION_OFFSET = 60;
  private static final int APPLICATION_ID_OFFSET = 68;

  private SchemaInspector() {}

  public static FileState inspect(Path file, int latestVersion) {
    try {
      if (!Files.exists(file) || Files.size(file) == 0) {
        return FileState.freshFile();
      }
      byte[] header = readHeader(file);
      if (!Arrays.equals(header, 0, SQLITE_HEADER.length, SQLITE_HEADER, 0, SQLITE_HEADER.length)) {
        throw unusable(file, Reason.NOT_A_DATABASE, file + " is not a racetriage database: it is not an SQLite "
            + "file. Point --db at another file, or move this one away and racetriage will create a new one.", null);
      }
      if (!plausibleHeader(header)) {
        throw unusable(file, Reason.CORRUPT,
            UnusableDatabaseException.corruptMessage(file, "its SQLite header is damaged"), null);
      }
      refuseFromHeader(file, header, latestVersion);
    } catch (IOException e) {
      throw new StoreException("cannot read the triage database " + file + ": " + e.getMessage(), e);
    }
    try (Connection connection = openReadOnly(file)) {
      int applicationId = pragma(connection, "application_id");
      int userVersion = pragma(connection, "user_version");
      List<String> tables = tables(connection);
      if (applicationId == SchemaIdentity.APPLICATION_ID) {
        if (userVersion > latestVersion) {
          throw newerSchema(file, userVersion, latestVersion);
        }
        requireIntact(file, connection);
        return FileState.racetriage(userVersion);
      }
      if (applicationId == 0 && userVersion == 0 && tables.isEmpty()) {
        return FileState.freshFile();
      }
      throw foreign(file, applicationId, summary(tables));
    } catch (SQLException e) {
      if (SqliteErrors.isCorrupt(e) || SqliteErrors.isNotADatabase(e)) {
        throw unusable(file, Reason.CORRUPT, UnusableDatabaseException.corruptMessage(file, e.getMessage()), e);
      }
      // Even reading a WAL file needs its -shm beside it: in a read-only directory SQLite cannot open it at all.
      throw WriteAccess.readOnly(file, e).<StoreException>map(readOnly -> readOnly).orElseGet(() ->
          new StoreException("cannot read the triage database " + file + ": " + e.getMessage(), e));
    }
  }

  /**
   * SQLite's {@code PRAGMA quick_check}: every page of every table and index is read and its b-tree structure checked
   * (not whether indexes match their tables, which the full integrity_check adds at several times the cost). Without
   * it, damage in pages that a command does not happen to read goes unnoticed: {@code mark} would write into a file
   * that {@code triage} then refuses. It reads the whole file once: about 50 ms for a 70 MB file in the page cache
   * (integrity_check: 300 ms).
   */
  private static void requireIntact(Path file, Connection connection) throws SQLException {
    List<String> problems = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("PRAGMA quick_check(3)")) {
      while (rows.next()) {
        problems.add(rows.getString(1).replaceAll("\\s*\\R\\s*", " ").strip()); // "*** in database main ***\n..."
      }
    }
    if (!problems.equals(List.of("ok"))) {
      throw unusable(file, Reason.CORRUPT,
          UnusableDatabaseException.corruptMessage(file, "SQLite's quick_check: " + String.join("; ", problems)), null);
    }
  }

  /** The first 100 bytes (the SQLite database header), zero-padded if the file is shorter. */
  private static byte[] readHeader(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return Arrays.copyOf(in.readNBytes(HEADER_SIZE), HEADER_SIZE);
    }
  }

  /** The fixed fields of the SQLite header: payload fractions 64/32/32 and a power-of-two page size. */
  private static boolean plausibleHeader(byte[] header) {
    int pageSize = ((header[16] & 0xff) << 8) | (header[17] & 0xff);
    boolean pageSizeOk = pageSize == 1 || (pageSize >= 512 && Integer.bitCount(pageSize) == 1);
    return pageSizeOk && header[21] == 64 && header[22] == 32 && header[23] == 32;
  }

  /**
   * Refuses, from the header bytes alone, a file whose identity is already settled there: another program's
   * application id, or racetriage's with a newer schema version. Opening such a file through SQLite, even read-only,
   * would leave -wal/-shm files beside it if it is in WAL mode. (A fresh racetriage file's identity may still be in
   * its WAL only, so an id of 0 here proves nothing and SQLite is asked.)
   */
  private static void refuseFromHeader(Path file, byte[] header, int latestVersion) {
    int userVersion = bigEndianInt(header, USER_VERSION_OFFSET);
    int applicationId = bigEndianInt(header, APPLICATION_ID_OFFSET);
    if (applicationId == SchemaIdentity.APPLICATION_ID && userVersion > latestVersion) {
      throw newerSchema(file, userVersion, latestVersion);
    }
    if (applicationId != 0 && applicationId != SchemaIdentity.APPLICATION_ID) {
      throw foreign(file, applicationId, "not read");
    }
  }

  private static int bigEndianInt(byte[] bytes, int offset) {
    return ((bytes[offset] & 0xff) << 24) | ((bytes[offset + 1] & 0xff) << 16) | ((bytes[offset + 2] & 0xff) << 8)
        | (bytes[offset + 3] & 0xff);
  }

  private static UnusableDatabaseException newerSchema(Path file, int userVersion, int latestVersion) {
    return unusable(
        file,
        Reason.NEWER_SCHEMA,
        file + " was written by a newer racetriage (schema version " + userVersion + "; this version knows up to "
            + latestVersion + "). Upgrade racetriage, or point --db at another file.",
        null);
  }

  private static UnusableDatabaseException foreign(Path file, int applicationId, String tables) {
    return unusable(
        file,
        Reason.FOREIGN,
        file + " is an SQLite database that racetriage did not create (application_id " + applicationId
            + ", tables " + tables + "). Point --db at another file, or move this one away.",
        null);
  }

  private static Connection openReadOnly(Path file) throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setReadOnly(true);
    config.setBusyTimeout(5_000);
    return config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
  }

  private static int pragma(Connection connection, String name) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("PRAGMA " + name)) {
      return row.next() ? row.getInt(1) : 0;
    }
  }

  private static List<String> tables(Connection connection) throws SQLException {
    List<String> names = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
      while (rows.next()) {
        names.add(rows.getString(1));
      }
    }
    return names;
  }

  private static String summary(List<String> tables) {
    if (tables.isEmpty()) {
      return "none";
    }
    List<String> shown = tables.subList(0, Math.min(5, tables.size()));
    return String.join(", ", shown) + (tables.size() > shown.size() ? ", ..." : "");
  }

  private static UnusableDatabaseException unusable(Path file, Reason reason, String message, Throwable cause) {
    return new UnusableDatabaseException(file, reason, message + " Nothing was changed in the file.", cause);
  }
}
