package dev.racetriage.corpus;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A catalog read under a read lock and written under the write lock — but each lookup also counts itself in a plain
 * field while holding only the read lock, which excludes writers, not other readers.
 *
 * <p>Racy field: {@code lookups} — destructive: two readers may both read the same count and one increment is lost.
 * The map itself is written only under the write lock: not racy.
 */
public final class ReadLockedCatalog {
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final Map<String, Integer> prices = new HashMap<>();
  private int lookups;

  public void put(String item, int price) {
    lock.writeLock().lock();
    try {
      prices.put(item, price);
    } finally {
      lock.writeLock().unlock();
    }
  }

  public Integer price(String item) {
    lock.readLock().lock();
    try {
      lookups++;
      return prices.get(item);
    } finally {
      lock.readLock().unlock();
    }
  }

  public int lookups() {
    lock.writeLock().lock();
    try {
      return lookups;
    } finally {
      lock.writeLock().unlock();
    }
  }
}
