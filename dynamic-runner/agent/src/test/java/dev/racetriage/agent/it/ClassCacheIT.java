package dev.racetriage.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The class cache across real JVMs: a second run takes (almost) every class from the cache and reports the same race; a run
 * whose JDK classes and warm-up come from the cache but whose application classes are new instruments those with
 * ASM loaded only then (mid-transformation) and still reports its race; {@code cache=off} uses none.
 */
class ClassCacheIT {
  private static final Pattern AT_EXIT = Pattern.compile(
      "at exit; class cache (\\S+): (\\d+) hits, (\\d+) misses, (\\d+) stale, (\\d+) damaged, (\\d+) stored");
  private static final String VOLATILE_ARRAY = "dev.racetriage.fixtures.racy.VolatileArrayElementsBad";
  private static final String LOST_UPDATE = "dev.racetriage.fixtures.racy.LostUpdateCounterBad";

  @Test
  void aSecondRunTakesItsClassesFromTheCacheAndReportsTheSameRace() throws Exception {
    Path cache = AgentJvm.WORK.resolve("class-cache-it");
    if (Files.exists(cache)) { // an earlier build's run (no clean in between) would turn the first run's misses to hits
      try (java.util.stream.Stream<Path> files = Files.walk(cache)) {
        for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
      }
    }
    Files.createDirectories(cache);
    String options = "mode=detect;verbose=true;cache=" + cache;
    int[] first = counts(run("cache-first", options, VOLATILE_ARRAY));
    assertTrue(first[1] > 0 && first[4] == first[1], "first run: every miss stored " + java.util.Arrays.toString(first));

    int[] second = counts(run("cache-second", options, VOLATILE_ARRAY));
    // (a thread schedule can load a JDK class one run and not the other, so "almost every class", not "every")
    assertTrue(second[0] > 0 && second[1] * 4 < first[1], "second run: " + java.util.Arrays.toString(second)
        + " after " + java.util.Arrays.toString(first));

    // JDK classes and the warm-up hit, the new fixture's classes miss: ASM first loads inside a transformation
    int[] other = counts(run("cache-new-classes", options, LOST_UPDATE));
    assertTrue(other[0] > 0 && other[1] > 0, java.util.Arrays.toString(other));
  }

  @Test
  void cacheOffUsesNone() throws Exception {
    AgentJvm.Result result = run("cache-off", "mode=detect;verbose=true;cache=off", LOST_UPDATE);
    assertTrue(result.stderr().contains("; no class cache"), result.describe());
  }

  private static AgentJvm.Result run(String name, String options, String fixture) throws Exception {
    AgentJvm.Result result = AgentJvm.run(name, options, AgentJvm.TEST_CLASSPATH,
        "dev.racetriage.fixtures.FixtureMain", fixture);
    assertEquals(0, result.exitCode(), result.describe());
    assertEquals("ok", result.report().status(), result.describe());
    String field = fixture.equals(VOLATILE_ARRAY) ? ".cells[]" : ".hits";
    assertEquals(Set.of(fixture + field), result.report().racyFields(), result.describe());
    assertTrue(!result.stderr().contains("WARNING"), result.describe());
    return result;
  }

  /** hits, misses, stale, damaged, stored at exit. */
  private static int[] counts(AgentJvm.Result result) {
    Matcher m = AT_EXIT.matcher(result.stderr());
    assertTrue(m.find(), result.describe());
    int[] out = new int[5];
    for (int i = 0; i < 5; i++) {
      out[i] = Integer.parseInt(m.group(i + 2));
    }
    return out;
  }
}
