package dev.racetriage.store.marks;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.sqlite.Tx;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * The field keys a mirror file held when this store last read or wrote it: the merge base that tells a teammate's
 * reopen (the file dropped a mark it held) from a mark the file never held. It belongs to one mirror file, that is to
 * one checkout. An SQLite store serves one checkout, so the whole {@code mirror_base} table is its base. A PostgreSQL
 * store is shared by every checkout of the team, each with its own file at its own commit, so each keeps its own base
 * there: rows prefixed with the checkout (host and file path) — one checkout's stale file must not reopen or bring back
 * what another changed in the shared store.
 */
public interface MirrorBase {
  Set<FieldKey> read(Tx tx) throws SQLException;

  void write(Tx tx, Collection<FieldKey> fields) throws SQLException;

  /** The whole table: a store of one checkout. */
  static MirrorBase whole() {
    return new MirrorBase() {
      @Override
      public Set<FieldKey> read(Tx tx) throws SQLException {
        return new HashSet<>(tx.query("SELECT field_key FROM mirror_base", row -> FieldKey.parse(row.getString(1))));
      }

      @Override
      public void write(Tx tx, Collection<FieldKey> fields) throws SQLException {
        tx.update("DELETE FROM mirror_base");
        for (FieldKey field : fields) {
          tx.update("INSERT INTO mirror_base(field_key) VALUES (?) ON CONFLICT DO NOTHING", field.toString());
        }
      }
    };
  }

  /**
   * The rows of one checkout in a shared store, {@code checkout + "\n" + field key} (a field key holds no line break,
   * so no checkout's rows are another's).
   */
  static MirrorBase ofCheckout(String checkout) {
    String prefix = checkout.replace('\n', ' ') + "\n";
    return new MirrorBase() {
      @Override
      public Set<FieldKey> read(Tx tx) throws SQLException {
        return new HashSet<>(tx.query(
            "SELECT field_key FROM mirror_base WHERE substr(field_key, 1, ?) = ?",
            row -> FieldKey.parse(row.getString(1).substring(prefix.length())), prefix.length(), prefix));
      }

      @Override
      public void write(Tx tx, Collection<FieldKey> fields) throws SQLException {
        tx.update("DELETE FROM mirror_base WHERE substr(field_key, 1, ?) = ?", prefix.length(), prefix);
        for (FieldKey field : fields) {
          tx.update("INSERT INTO mirror_base(field_key) VALUES (?) ON CONFLICT DO NOTHING", prefix + field);
        }
      }
    };
  }
}
