package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** JPR {@code isprime}: however stale the shared table's reads, the count of primes below 100,000 is 9,592. */
class PrimeSieveTest {
  @Test
  void countsThePrimesBelowOneHundredThousand() throws InterruptedException {
    assertEquals(9_592, new PrimeSieve(100_000).countPrimes());
  }
}
