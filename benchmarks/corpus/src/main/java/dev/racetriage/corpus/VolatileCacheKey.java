package dev.racetriage.corpus;

/**
 * {@link CacheKey} with its lazily cached hash in a volatile field: the race-free version (no row in
 * {@code expected.tsv}; a race reported here is a false one). Two threads may both compute the hash, but every
 * read sees 0 or the hash through a happens-before edge.
 */
public final class VolatileCacheKey {
  private final String name;
  private final int version;
  private volatile int hash;

  public VolatileCacheKey(String name, int version) {
    this.name = name;
    this.version = version;
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = 31 * name.hashCode() + version;
      hash = h;
    }
    return h;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof VolatileCacheKey k && k.name.equals(name) && k.version == version;
  }
}
