package dev.racetriage.dashboard.database;

import dev.racetriage.store.engine.StoreLocation;
import dev.racetriage.store.TriageStore;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The dashboard's way to the triage database. Pages, the API, exports and live progress only read, through
 * {@link #reads()}; the triage actions (mark, reopen, comment) write through {@link #writes()}.
 *
 * <p>{@link #readOnly} reads through {@link TriageStore#openReadOnly}, so starting the dashboard — and serving it
 * — writes nothing to the database (a writable open migrates, marks dead runs abandoned and imports the mirror
 * file). The writable store is opened at the first triage action, which is when the user asked for a write; it
 * then does what every writable open does.
 */
public final class StoreAccess implements AutoCloseable {
  private final TriageStore reads;
  private final Supplier<TriageStore> openWriter;
  private final boolean ownsStores;
  private TriageStore writes;

  private StoreAccess(TriageStore reads, Supplier<TriageStore> openWriter, TriageStore writes, boolean ownsStores) {
    this.reads = reads;
    this.openWriter = openWriter;
    this.writes = writes;
    this.ownsStores = ownsStores;
  }

  /** One store, opened and closed by the caller, for reads and writes alike. */
  public static StoreAccess shared(TriageStore store) {
    return new StoreAccess(store, () -> store, store, false);
  }

  /**
   * Reads {@code dbFile} read-only now and opens it for writing on the first triage action; both are closed with
   * this. Throws what {@link TriageStore#openReadOnly} throws.
   */
  public static StoreAccess readOnly(Path dbFile, Path projectDir) {
    return readOnly(StoreLocation.file(dbFile), projectDir);
  }

  /** As {@link #readOnly(Path, Path)} for a file or a PostgreSQL store shared by a team. */
  public static StoreAccess readOnly(StoreLocation location, Path projectDir) {
    TriageStore reads = TriageStore.openReadOnly(location, projectDir);
    return new StoreAccess(reads, () -> TriageStore.open(location, projectDir), null, true);
  }

  public TriageStore reads() {
    return reads;
  }

  /** The store triage actions write through, opened on first use (a failure is retried at the next action). */
  public synchronized TriageStore writes() {
    if (writes == null) {
      writes = openWriter.get();
    }
    return writes;
  }

  @Override
  public synchronized void close() {
    if (!ownsStores) {
      return;
    }
    try {
      if (writes != null) {
        writes.close();
      }
    } finally {
      reads.close();
    }
  }
}
