package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** JPR {@code dcl}: two threads get the helpers of 20 holders; the second mostly takes the unsynchronised path. */
class HelperHolderTest {
  private static final int HOLDERS = 20;

  @Test
  void everyThreadGetsAFullyConstructedHelper() throws Throwable {
    HelperHolder[] holders = new HelperHolder[HOLDERS];
    for (int i = 0; i < HOLDERS; i++) holders[i] = new HelperHolder();
    Concurrently.Body getAll = () -> {
      for (HelperHolder holder : holders) assertEquals(42, holder.getHelper().value());
    };
    Concurrently.run(getAll, Concurrently.settled(getAll));
  }
}
