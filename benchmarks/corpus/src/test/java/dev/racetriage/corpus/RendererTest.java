package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The racy statistic: the checksum of a 400-row image rendered by 4 runners equals the sequential one. */
class RendererTest {
  @Test
  void checksumMatchesTheSequentialRendering() throws InterruptedException {
    long expected = 0;
    for (int row = 0; row < 400; row++) expected += Renderer.shade(row);
    assertEquals(expected, new Renderer(400).render(4));
  }
}
