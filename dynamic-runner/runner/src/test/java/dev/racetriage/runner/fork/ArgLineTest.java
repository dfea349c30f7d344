package dev.racetriage.runner.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ArgLineTest {
  @Test
  void splitsAtWhitespaceOutsideQuotesAndDropsTheQuotes() {
    assertEquals(List.of(), ArgLine.tokens("   "));
    assertEquals(List.of("-Xmx1g", "-Dfoo=bar"), ArgLine.tokens(" -Xmx1g \t -Dfoo=bar\n"));
    assertEquals(List.of("-Dmsg=hello world", "-Dx=it's"), ArgLine.tokens("\"-Dmsg=hello world\" -Dx=\"it's\""));
    assertEquals(List.of("-Da=b c", ""), ArgLine.tokens("-Da='b c' ''"));
    assertEquals(List.of("-javaagent:/r/jacoco.jar=destfile=/t/jacoco.exec", "--add-opens", "java.base/java.lang=ALL-UNNAMED"),
        ArgLine.tokens("-javaagent:/r/jacoco.jar=destfile=/t/jacoco.exec --add-opens java.base/java.lang=ALL-UNNAMED"));
  }

  @Test
  void aCoverageAgentIsDroppedAndOtherAgentsAreKept() {
    assertEquals(List.of("-Dx=1", "-javaagent:/m2/org/mockito/mockito-core/5.11.0/mockito-core-5.11.0.jar"),
        ArgLine.withoutCoverageAgents(List.of(
            "-javaagent:/m2/org/jacoco/org.jacoco.agent/0.8.12/org.jacoco.agent-0.8.12-runtime.jar=destfile=/t/j.exec",
            "-Dx=1", "-javaagent:/m2/org/mockito/mockito-core/5.11.0/mockito-core-5.11.0.jar")));
  }

  /** The detection JVM gets the parallel collector unless the project (argLine or environment) chose a collector. */
  @Test
  void theDetectionCollectorIsAddedOnlyWhenTheProjectChoseNone() {
    assertEquals(java.util.Optional.of("-XX:+UseParallelGC"),
        ArgLine.detectionCollector(List.of("-Xmx2g", "-XX:+UseStringDeduplication"), java.util.Map.of()));
    assertEquals(java.util.Optional.empty(),
        ArgLine.detectionCollector(List.of("-Xmx2g", "-XX:+UseG1GC"), java.util.Map.of()));
    assertEquals(java.util.Optional.empty(),
        ArgLine.detectionCollector(List.of(), java.util.Map.of("JAVA_TOOL_OPTIONS", "-Dx=1 -XX:+UseZGC")));
    assertEquals(java.util.Optional.empty(),
        ArgLine.detectionCollector(List.of(), java.util.Map.of("JDK_JAVA_OPTIONS", "-XX:+UseSerialGC")));
  }

  @Test
  void anUnbalancedQuoteSaysWhereToFixIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ArgLine.tokens("-Dx=\"open"));
    assertTrue(e.getMessage().contains("<argLine>"), e.getMessage());
  }
}
