package dev.racetriage.store.fields;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.sqlite.Tx;
import java.sql.SQLException;
import java.util.Optional;

/** The {@code field} table: the row id of a field key, created on first use. */
public final class FieldTable {
  private FieldTable() {}

  public static long ensure(Tx tx, FieldKey key) throws SQLException {
    Optional<Long> existing = find(tx, key);
    if (existing.isPresent()) {
      return existing.get();
    }
    return tx.insert(
        "INSERT INTO field(field_key, class_name, member, is_array) VALUES (?, ?, ?, ?)",
        key.toString(), key.className(), key.member(), key.array());
  }

  public static Optional<Long> find(Tx tx, FieldKey key) throws SQLException {
    return tx.queryOne("SELECT id FROM field WHERE field_key = ?", row -> row.getLong(1), key.toString());
  }
}
