package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Unsafe JDK containers shared by two threads whose verdicts a triage reaches within the benign rule's runs: a tree
 * map that loses players and a builder that loses or cuts lines (destructive: perturbed runs fail in most runs), and a
 * cache whose lost entries are recomputed (benign). The runner's ContainerTriageTest triages this class with its four
 * programs. {@link ContainersTest} holds the two whose failures are rare (about one run in eight to ten).
 */
class UnsafeContainersTest {
  @Test
  void everyScoreIsRanked() throws Throwable {
    // warm the board's code up first: a normal run then ranks a worker's 20 players in microseconds, well before the
    // other worker starts, while the agent's slower calls overlap (the race stays in every run, only its odds change)
    RankBoard warmUp = new RankBoard();
    for (int i = 0; i < 2_000; i++) warmUp.rank("warm-up " + (i % 100), i);
    RankBoard board = new RankBoard();
    Concurrently.run(() -> {
      for (int i = 0; i < 20; i++) board.rank(String.format("Player %03d A", i), i);
    }, () -> {
      for (int i = 0; i < 20; i++) board.rank(String.format("player %03d b", i), i);
    });
    assertEquals(40, board.ranked());
    assertEquals(40, board.listed());
  }

  @Test
  void everyAuditLineIsKept() throws Throwable {
    AuditTrail trail = new AuditTrail();
    Concurrently.run(() -> {
      for (int i = 0; i < 50; i++) trail.log("a" + i);
    }, () -> {
      for (int i = 0; i < 50; i++) trail.log("b" + i);
    });
    String[] lines = trail.text().split("\n");
    assertEquals(100, lines.length, trail.text());
    for (String line : lines) {
      assertEquals(true, line.matches("[ab][0-9]{1,2}"), "a cut line: " + line);
    }
  }

  @Test
  void cachedNamesAreTheComputedOnes() throws Throwable {
    NameCache cache = new NameCache();
    Concurrently.Body lookUps = () -> {
      for (int round = 0; round < 3; round++) {
        for (int id = 0; id < 10; id++) assertEquals("item-" + id, cache.nameOf(id));
      }
    };
    Concurrently.run(lookUps, lookUps);
  }
}
