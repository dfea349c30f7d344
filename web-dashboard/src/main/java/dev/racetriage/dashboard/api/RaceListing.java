package dev.racetriage.dashboard.api;

import dev.racetriage.store.Page;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.races.CodeScope;
import dev.racetriage.store.races.RaceQuery;
import dev.racetriage.store.races.RaceSummary;
import java.time.DateTimeException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
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

  /**
   * A page of the races of {@code scope} ({@code isTestCode} tells a test-code race by its field key). The store does
   * not know where a race lives, so a scope other than {@link CodeScope#ALL} walks every matching row in the query's
   * order, keeps those in scope and cuts the page from them. Unreadable rows are counted as product races (where
   * their accesses are is unknown) and take the last places of the product list.
   */
  public Listed list(RaceQuery query, CodeScope scope, Predicate<String> isTestCode) {
    if (scope == CodeScope.ALL) {
      return list(query);
    }
    List<RaceSummary> inScope = new ArrayList<>();
    int unreadable = 0;
    RaceQuery all = query.page(0, RaceQuery.MAX_LIMIT);
    while (true) {
      Listed page = list(all);
      page.items().stream().filter(r -> scope.includes(isTestCode.test(r.field().toString()))).forEach(inScope::add);
      unreadable += page.unreadable();
      int read = page.items().size() + page.unreadable();
      if (!page.hasMore() || read == 0) break;
      all = all.page(all.offset() + read, RaceQuery.MAX_LIMIT);
    }
    int unreadableInScope = scope == CodeScope.PRODUCT ? unreadable : 0;
    int from = Math.min(query.offset(), inScope.size());
    int to = (int) Math.min((long) query.offset() + query.limit(), inScope.size());
    // the unreadable rows sit after the readable ones: this page holds those of its places past the readable end
    long pageEnd = Math.min((long) query.offset() + query.limit(), (long) inScope.size() + unreadableInScope);
    int unreadableHere = (int) Math.max(0, pageEnd - Math.max(query.offset(), inScope.size()));
    return new Listed(List.copyOf(inScope.subList(from, to)), inScope.size() + unreadableInScope, query.offset(),
        query.limit(), unreadableHere);
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
