package dev.racetriage.dashboard.api;

import dev.racetriage.store.Page;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.races.RaceQuery;
import dev.racetriage.store.races.RaceSummary;
import java.time.DateTimeException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists races so that one row the store cannot read does not fail the list for everyone. The store maps a page in
 * one go and throws for the whole page when a row holds what this version cannot parse (a field key that is not
 * one, an unknown verdict — written by another version, or by hand). When that happens the page is read again in
 * halves, down to single rows, and each row that still fails is left out and counted; the log names the page. The
 * common case stays one query; a bad row costs about 2·log2(page size) more.
 */
public final class RaceListing {
  private static final Logger LOG = LoggerFactory.getLogger(RaceListing.class);

  private final TriageStore store;

  public RaceListing(TriageStore store) {
    this.store = store;
  }

  /**
   * A page of readable races. {@code total} counts every matching row, readable or not; {@code unreadable} is how
   * many rows of this page were left out, so {@code items.size() + unreadable} rows of the page were matched.
   */
  public record Listed(List<RaceSummary> items, long total, int offset, int limit, int unreadable) {
    public boolean hasMore() {
      return offset + items.size() + unreadable < total;
    }
  }

  public Listed list(RaceQuery query) {
    try {
      Page<RaceSummary> page = store.races().list(query);
      return new Listed(page.items(), page.total(), page.offset(), page.limit(), 0);
    } catch (RuntimeException e) {
      if (!unreadableRow(e)) {
        throw e;
      }
      List<RaceSummary> items = new ArrayList<>();
      int unreadable = readInHalves(query, query.offset(), query.limit(), items);
      LOG.warn("{} race row(s) at offset {}..{} of the race list cannot be read and are left out: {}",
          unreadable, query.offset(), query.offset() + query.limit() - 1, e.getMessage());
      return new Listed(items, total(query), query.offset(), query.limit(), unreadable);
    }
  }

  /** Adds the readable rows of {@code offset..offset+limit} to {@code items}; returns how many could not be read. */
  private int readInHalves(RaceQuery query, int offset, int limit, List<RaceSummary> items) {
    try {
      items.addAll(store.races().list(query.page(offset, limit)).items());
      return 0;
    } catch (RuntimeException e) {
      if (!unreadableRow(e)) {
        throw e;
      }
      if (limit == 1) {
        return 1;
      }
      int half = limit / 2;
      return readInHalves(query, offset, half, items) + readInHalves(query, offset + half, limit - half, items);
    }
  }

  /** How many rows match: a page past the end maps no row, so it cannot fail on one. */
  private long total(RaceQuery query) {
    return store.races().list(query.page(Integer.MAX_VALUE, 1)).total();
  }

  /** The note shown wherever races were left out. */
  public static String note(int unreadable) {
    return unreadable + (unreadable == 1 ? " race" : " races") + " could not be read from the triage database and "
        + (unreadable == 1 ? "is" : "are") + " left out (written by another racetriage version? the dashboard's log "
        + "has the error)";
  }

  /**
   * What the store's row mappers throw for a row they cannot read: {@code FieldKey.parse} and {@code valueOf} an
   * {@link IllegalArgumentException}, a timestamp out of range a {@link DateTimeException}. Database failures are
   * {@code StoreException}s and still fail the request.
   */
  static boolean unreadableRow(RuntimeException e) {
    return e instanceof IllegalArgumentException || e instanceof DateTimeException;
  }
}
