package dev.racetriage.store;

import java.util.List;

/** One page of a query result and the total number of rows that matched, for pagination. */
public record Page<T>(List<T> items, long total, int offset, int limit) {
  public Page {
    items = List.copyOf(items);
  }

  public boolean hasMore() {
    return offset + items.size() < total;
  }
}
