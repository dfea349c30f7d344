package dev.racetriage.corpus;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.StampedLock;

/**
 * {@link ReadLockedCatalog} with a {@code StampedLock}: lookups count themselves in a plain field while holding the
 * read lock, which excludes writers, not other readers.
 *
 * <p>Racy field: {@code lookups} — destructive: two readers may both read the same count and one increment is lost.
 * The map is written only under the write lock and read under the read lock (or by a validated optimistic read):
 * not racy.
 */
public final class StampedCatalog {
  private final StampedLock lock = new StampedLock();
  private final Map<String, Integer> prices = new HashMap<>();
  private int lookups;

  public void put(String item, int price) {
    long stamp = lock.writeLock();
    try {
      prices.put(item, price);
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  public Integer price(String item) {
    long stamp = lock.readLock();
    try {
      lookups++;
      return prices.get(item);
    } finally {
      lock.unlockRead(stamp);
    }
  }

  public int lookups() {
    long stamp = lock.writeLock();
    try {
      return lookups;
    } finally {
      lock.unlockWrite(stamp);
    }
  }
}
