package dev.racetriage.corpus;

/**
 * Java PathRelaxer's {@code isprime}: a sieve of Eratosthenes on two threads that share the {@code composite} array
 * without synchronisation. A thread skips a base already crossed out; a stale {@code false} makes it cross out the
 * multiples of a composite base, which are composites anyway — more work, the same table. The count is read after
 * both threads are joined, so it never sees a stale element.
 *
 * <p>Racy field: {@code composite[]} — benign. Its racing elements are the small composite bases (4, 6, 8, 9, …) and
 * their multiples; elements 0 and 1 (the indices adversarial memory samples by default) are never written.
 */
public final class PrimeSieve {
  private final int limit;
  private final boolean[] composite;

  public PrimeSieve(int limit) {
    this.limit = limit;
    this.composite = new boolean[limit];
  }

  /** The number of primes below the limit. */
  public int countPrimes() throws InterruptedException {
    Thread first = new Thread(() -> crossOut(1), "sieve-1");
    Thread second = new Thread(() -> crossOut(0), "sieve-0");
    first.start();
    second.start();
    first.join();
    second.join();
    int primes = 0;
    for (int n = 2; n < limit; n++) {
      if (!composite[n]) primes++;
    }
    return primes;
  }

  /** Handles the bases b with (b / 2) % 2 == share: 2, 3, 6, 7, 10, … on one thread, 4, 5, 8, 9, … on the other. */
  private void crossOut(int share) {
    for (int base = 2; (long) base * base < limit; base++) {
      if ((base / 2) % 2 != share) continue;
      if (composite[base]) continue; // racy: a stale false only repeats work
      for (int multiple = base * base; multiple < limit; multiple += base) {
        composite[multiple] = true;
      }
    }
  }
}
