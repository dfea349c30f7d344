package dev.racetriage.store.engine;

import dev.racetriage.store.StoreException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Where a triage store lives: an SQLite file (the default, one per project) or a PostgreSQL database shared by a team
 * ({@code jdbc:postgresql://host:port/db?user=name}). {@link #parse} reads what {@code --db} was given.
 *
 * <p>A PostgreSQL password is never part of a location: it comes from {@code RACETRIAGE_DB_PASSWORD} or the user's
 * {@code ~/.pgpass} (which the driver reads itself), so it never appears in a command line, a process list, a shell
 * history or a message. A URL that carries one is refused.
 */
public sealed interface StoreLocation permits StoreLocation.SqliteFile, StoreLocation.Postgres {
  String POSTGRES_PREFIX = "jdbc:postgresql:";

  /** What {@code --db} says: a JDBC URL for PostgreSQL, else the path of an SQLite file. */
  static StoreLocation parse(String text) {
    if (text.regionMatches(true, 0, "jdbc:", 0, 5)) {
      if (!text.regionMatches(true, 0, POSTGRES_PREFIX, 0, POSTGRES_PREFIX.length())) {
        throw new StoreException("--db " + text + ": racetriage stores races in an SQLite file or in PostgreSQL; "
            + "give a file path or a URL jdbc:postgresql://host:port/database?user=name");
      }
      return Postgres.parse(text);
    }
    return new SqliteFile(Path.of(text));
  }

  static StoreLocation file(Path file) {
    return new SqliteFile(file);
  }

  /** How messages name the store: the file, or the URL (which never holds a password). */
  String display();

  /** The SQLite file of this location, or null for a server. */
  default Path fileOrNull() {
    return this instanceof SqliteFile sqlite ? sqlite.file() : null;
  }

  /** An SQLite file. */
  record SqliteFile(Path file) implements StoreLocation {
    public SqliteFile {
      file = file.toAbsolutePath().normalize();
    }

    @Override
    public String display() {
      return file.toString();
    }
  }

  /**
   * A PostgreSQL database, by its pgjdbc URL. {@code user} is the URL's {@code user} parameter (null: the driver's
   * default, the OS user); {@code database} its path.
   */
  record Postgres(String url, String user, String database) implements StoreLocation {
    /** The environment variable the password is read from (else ~/.pgpass). */
    public static final String PASSWORD_VARIABLE = "RACETRIAGE_DB_PASSWORD";

    public static Postgres parse(String url) {
      String rest = url.substring(POSTGRES_PREFIX.length());
      if (!rest.startsWith("//")) {
        throw new StoreException("--db " + url + " is not a PostgreSQL URL racetriage understands: write "
            + "jdbc:postgresql://host:port/database?user=name");
      }
      int query = rest.indexOf('?');
      String authorityAndPath = query < 0 ? rest.substring(2) : rest.substring(2, query);
      int slash = authorityAndPath.indexOf('/');
      String authority = slash < 0 ? authorityAndPath : authorityAndPath.substring(0, slash);
      String database = slash < 0 ? "" : authorityAndPath.substring(slash + 1);
      if (authority.contains("@")) {
        throw passwordRefused(url);
      }
      if (database.isEmpty()) {
        throw new StoreException("--db " + url + " names no database: write jdbc:postgresql://"
            + (authority.isEmpty() ? "host:port" : authority) + "/database?user=name");
      }
      String user = null;
      if (query >= 0) {
        for (String parameter : rest.substring(query + 1).split("&")) {
          int eq = parameter.indexOf('=');
          String name = (eq < 0 ? parameter : parameter.substring(0, eq)).toLowerCase(Locale.ROOT);
          if (name.equals("password") || name.equals("sslpassword")) {
            throw passwordRefused(url);
          }
          if (name.equals("user") && eq >= 0) {
            user = parameter.substring(eq + 1);
          }
        }
      }
      return new Postgres(url, user, database);
    }

    private static StoreException passwordRefused(String url) {
      // Say which URL without repeating the secret it holds.
      String shown = url.replaceAll("(?i)((?:ssl)?password)=[^&]*", "$1=***").replaceAll("//[^/@?]*@", "//***@");
      return new StoreException("--db " + shown + " carries a password; racetriage never takes one on the command "
          + "line (it would be in the shell history and the process list). Remove it from the URL and set "
          + PASSWORD_VARIABLE + ", or add a line host:port:database:user:password to ~/.pgpass (mode 0600).");
    }

    @Override
    public String display() {
      return url;
    }

    /** The user named in messages: the URL's, else the one the driver will use. */
    public String userOrDefault() {
      return user != null ? user : System.getProperty("user.name");
    }
  }
}
