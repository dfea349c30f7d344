package dev.racetriage.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The jumble report of a forked JVM carries JUMBLE Figure 10's counts per field: locations, writes, and the largest
 * write buffer with and without compression, on a program whose numbers are known (see the fixture's comment).
 */
class JumbleBufferSizesIT {
  private static final String FIXTURE = "dev.racetriage.fixtures.jumble.WriteHistory";

  @Test
  void theReportCarriesTheBufferSizesWithAndWithoutCompression() throws Exception {
    AgentJvm.Result r = AgentJvm.run("jumble-buffer-sizes",
        "mode=jumble;field=" + FIXTURE + ".privateHistory," + FIXTURE + ".sharedHistory;heuristic=sc;bound=4",
        AgentJvm.TEST_CLASSPATH, "dev.racetriage.fixtures.FixtureMain", "--repeat", "1", FIXTURE);
    assertEquals(0, r.exitCode(), r.describe());
    assertEquals("ok", r.report().status(), r.describe());

    String shared = jumbleLine(r, FIXTURE + ".sharedHistory");
    assertEquals(1, number(shared, "locations"), shared);
    assertEquals(10, number(shared, "writes"), shared);
    assertEquals(11, number(shared, "maxBufferUncompressed"), shared);
    assertEquals(4, number(shared, "maxBufferCompressed"), "the reader kept every write visible: " + shared);
    assertEquals(7, number(shared, "removedOldest"), shared);

    String own = jumbleLine(r, FIXTURE + ".privateHistory");
    assertEquals(10, number(own, "writes"), own);
    assertEquals(11, number(own, "maxBufferUncompressed"), own);
    long compressed = number(own, "maxBufferCompressed");
    assertTrue(compressed >= 1 && compressed < 4, "GC1 dropped what only the writer could have seen: " + own);
    assertEquals(0, number(own, "removedOldest"), own);
  }

  private static String jumbleLine(AgentJvm.Result r, String field) {
    return r.report().lines().stream()
        .filter(l -> l.contains("\"type\":\"jumble\"") && l.contains("\"field\":\"" + field + "\""))
        .findFirst().orElseThrow(() -> new AssertionError("no jumble line for " + field + ": " + r.report().lines()));
  }

  private static long number(String line, String name) {
    Matcher m = Pattern.compile("\"" + name + "\":(\\d+)").matcher(line);
    assertTrue(m.find(), "no " + name + " in " + line);
    return Long.parseLong(m.group(1));
  }
}
