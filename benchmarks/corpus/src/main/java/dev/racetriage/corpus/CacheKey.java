package dev.racetriage.corpus;

/**
 * A value class used as a map key, with {@code String.hashCode}'s lazily cached hash; worker threads hash it when
 * they put it in a map (the JDK calls {@code hashCode}).
 *
 * <p>Racy field: {@code hash} — benign: every visible value is 0 (recompute the same) or the hash, and the local is
 * returned.
 */
public final class CacheKey {
  private final String name;
  private final int version;
  private int hash;

  public CacheKey(String name, int version) {
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
    return other instanceof CacheKey k && k.name.equals(name) && k.version == version;
  }
}
