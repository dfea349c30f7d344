package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A table published through a plain field converts with its factors, or not at all (-1) before it is published. */
class FreshTableTest {
  @Test
  void aPublishedTableConvertsWithItsFactors() throws Throwable {
    FreshTable table = new FreshTable();
    double[] seen = new double[1];
    Concurrently.run(table::load, Concurrently.settled(() -> seen[0] = table.toBase(3, 2)));
    assertTrue(seen[0] == -1 || seen[0] == 3_000_000.0, "3 mega is 3000000 ones, not " + seen[0]);
  }
}
