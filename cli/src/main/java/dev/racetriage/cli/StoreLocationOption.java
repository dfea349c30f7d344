package dev.racetriage.cli;

import dev.racetriage.store.StoreException;
import dev.racetriage.store.engine.StoreLocation;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --db}: an SQLite file or a PostgreSQL URL ({@link StoreLocation#parse}); a URL that carries a password is a
 * usage error (exit 2) that says where the password goes instead.
 */
final class StoreLocationOption implements ITypeConverter<StoreLocation> {
  static final String LABEL = "DB";
  static final String DESCRIPTION = "Triage store: an SQLite file (default: DIR/.racetriage/triage.db) or "
      + "jdbc:postgresql://host:port/database?user=NAME (password from $RACETRIAGE_DB_PASSWORD or ~/.pgpass, "
      + "never in the URL)";

  @Override
  public StoreLocation convert(String value) {
    try {
      return StoreLocation.parse(value);
    } catch (StoreException e) {
      throw new TypeConversionException(e.getMessage().replaceFirst("^--db ", "")); // picocli names the option
    }
  }
}
