package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Two readers look an item up under the read lock; the catalog counts every lookup. */
class ReadLockedCatalogTest {
  @Test
  void everyLookupIsCounted() throws Throwable {
    ReadLockedCatalog catalog = new ReadLockedCatalog();
    catalog.put("tea", 3);
    Concurrently.Body lookUp = () -> assertEquals(3, catalog.price("tea"));
    Concurrently.run(lookUp, Concurrently.settled(lookUp));
    assertEquals(2, catalog.lookups());
  }

  @Test
  void everyStampedLookupIsCounted() throws Throwable {
    StampedCatalog catalog = new StampedCatalog();
    catalog.put("tea", 3);
    Concurrently.Body lookUp = () -> assertEquals(3, catalog.price("tea"));
    Concurrently.run(lookUp, Concurrently.settled(lookUp));
    assertEquals(2, catalog.lookups());
  }
}
