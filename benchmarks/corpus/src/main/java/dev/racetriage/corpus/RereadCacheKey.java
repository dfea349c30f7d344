package dev.racetriage.corpus;

/**
 * {@link CacheKey} with the re-read variant of the cache: the field is checked, then read again to be returned.
 *
 * <p>Racy field: {@code hash} — destructive: the check may see the hash and the re-read the initial 0, so the key is
 * looked up in the wrong bin (a second entry, or a missed one).
 */
public final class RereadCacheKey {
  private final String name;
  private int hash;

  public RereadCacheKey(String name) {
    this.name = name;
  }

  @Override
  public int hashCode() {
    if (hash == 0) {
      hash = 31 * name.hashCode() + 7;
    }
    return hash;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RereadCacheKey k && k.name.equals(name);
  }
}
