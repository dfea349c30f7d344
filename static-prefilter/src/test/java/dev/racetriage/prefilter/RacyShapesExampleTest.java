package dev.racetriage.prefilter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.prefilter.facts.RacePattern;
import dev.racetriage.prefilter.parse.Classpath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The prefilter on examples/racy-shapes (read, never modified): every racy field its README lists is a candidate,
 * and none of the synchronised counterparts is.
 */
class RacyShapesExampleTest {

  private static final Path EXAMPLE = Path.of("..", "examples", "racy-shapes").toAbsolutePath().normalize();
  private static final String PKG = "dev.racetriage.examples.";
  private static Analysis analysis;

  @BeforeAll
  static void scan() {
    assertTrue(Files.isDirectory(EXAMPLE), "missing example project " + EXAMPLE);
    // the JDK is enough here: the example's only library is JUnit, used in assertions
    analysis = Prefilter.open(EXAMPLE, Classpath.given(List.of())).scan();
  }

  @Test
  void exactlyTheRacyFieldsOfTheReadmeAreCandidates() {
    Set<String> expected = new TreeSet<>(List.of(PKG + "RacyInitLoop.x", PKG + "Point.p", PKG + "Point.x",
        PKG + "Point.y", PKG + "HashCache.hash", PKG + "BusyWait.done", PKG + "BusyWait.result",
        PKG + "TourSearch.bestLength", PKG + "VerboseProgress.verbose"));
    Set<String> found = new TreeSet<>(analysis.candidates().stream().map(Candidate::field).toList());
    assertEquals(expected, found);
  }

  @Test
  void theShapesAreNamed() {
    Expect.hasPattern(Expect.candidate(analysis, PKG + "Point.p"), RacePattern.DOUBLE_CHECKED_LOCKING);
    Candidate x = Expect.candidate(analysis, PKG + "RacyInitLoop.x");
    Expect.hasPattern(x, RacePattern.CHECK_THEN_ACT);
    Expect.hasPattern(x, RacePattern.BUSY_WAIT);
    Expect.hasPattern(Expect.candidate(analysis, PKG + "BusyWait.done"), RacePattern.BUSY_WAIT);
    Expect.hasPattern(Expect.candidate(analysis, PKG + "HashCache.hash"), RacePattern.RACY_LAZY_INIT);
    Expect.hasReason(Expect.candidate(analysis, PKG + "Point.y"), "published unsafely through the racy field "
        + PKG + "Point.p");
  }

  @Test
  void theBenignHashCacheRanksLowest() {
    Candidate hash = Expect.candidate(analysis, PKG + "HashCache.hash");
    assertEquals(hash, analysis.candidates().get(analysis.candidates().size() - 1));
  }
}
