package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Value classes with a lazily cached hash, put into one concurrent map by two threads: the map orders its own state,
 * not the keys' caches, which the JDK's calls of {@code hashCode} fill on both threads.
 */
class HashedKeysTest {
  private static final int KEYS = 20;

  @Test
  void cachedHashKeysCountIntoOneEntryEach() throws Throwable {
    CacheKey[] keys = new CacheKey[KEYS];
    for (int i = 0; i < KEYS; i++) keys[i] = new CacheKey("key-" + i, i);
    ConcurrentHashMap<CacheKey, Integer> counts = new ConcurrentHashMap<>();
    Concurrently.Body countAll = () -> {
      for (CacheKey key : keys) counts.merge(key, 1, Integer::sum);
    };
    Concurrently.run(countAll, Concurrently.settled(countAll));
    assertEquals(KEYS, counts.size());
    for (int i = 0; i < KEYS; i++) assertEquals(2, counts.get(new CacheKey("key-" + i, i)));
  }

  @Test
  void rereadHashKeysCountIntoOneEntryEach() throws Throwable {
    RereadCacheKey[] keys = new RereadCacheKey[KEYS];
    for (int i = 0; i < KEYS; i++) keys[i] = new RereadCacheKey("key-" + i);
    ConcurrentHashMap<RereadCacheKey, Integer> counts = new ConcurrentHashMap<>();
    Concurrently.Body countAll = () -> {
      for (RereadCacheKey key : keys) counts.merge(key, 1, Integer::sum);
    };
    Concurrently.run(countAll, Concurrently.settled(countAll));
    assertEquals(KEYS, counts.size());
    for (int i = 0; i < KEYS; i++) assertEquals(2, counts.get(new RereadCacheKey("key-" + i)));
  }

  @Test
  void volatileHashKeysCountIntoOneEntryEach() throws Throwable {
    VolatileCacheKey[] keys = new VolatileCacheKey[KEYS];
    for (int i = 0; i < KEYS; i++) keys[i] = new VolatileCacheKey("key-" + i, i);
    ConcurrentHashMap<VolatileCacheKey, Integer> counts = new ConcurrentHashMap<>();
    Concurrently.Body countAll = () -> {
      for (VolatileCacheKey key : keys) counts.merge(key, 1, Integer::sum);
    };
    Concurrently.run(countAll, Concurrently.settled(countAll));
    assertEquals(KEYS, counts.size());
    for (int i = 0; i < KEYS; i++) assertEquals(2, counts.get(new VolatileCacheKey("key-" + i, i)));
  }
}
