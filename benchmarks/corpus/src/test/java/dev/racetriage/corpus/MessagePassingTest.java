package dev.racetriage.corpus;

import org.junit.jupiter.api.Test;

/** RELAXER Figure 2: the reader throws (the figure's ERROR) if it sees the flag without the data. */
class MessagePassingTest {
  @Test
  void readerThatSeesTheFlagSeesTheData() throws Throwable {
    MessagePassing litmus = new MessagePassing();
    Concurrently.run(litmus::write, Concurrently.settled(litmus::read));
  }
}
