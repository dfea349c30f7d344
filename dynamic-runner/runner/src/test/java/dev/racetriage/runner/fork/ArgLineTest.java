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

  /** With the collector racetriage chose, its time goal too, unless the project set one; none with the project's. */
  @Test
  void theDetectionCollectorsTimeGoalComesWithItUnlessTheProjectSetOne() {
    assertEquals(java.util.Optional.of("-XX:GCTimeRatio=19"),
        ArgLine.detectionGcTimeRatio(List.of("-Xss640k"), java.util.Map.of()));
    assertEquals(java.util.Optional.empty(),
        ArgLine.detectionGcTimeRatio(List.of("-XX:+UseG1GC"), java.util.Map.of()));
    assertEquals(java.util.Optional.empty(),
        ArgLine.detectionGcTimeRatio(List.of("-XX:GCTimeRatio=4"), java.util.Map.of()));
    assertEquals(java.util.Optional.empty(),
        ArgLine.detectionGcTimeRatio(List.of(), java.util.Map.of("_JAVA_OPTIONS", "-XX:GCTimeRatio=9")));
  }

  /** The detection JVM clears unused soft references sooner, unless the project chose a policy itself. */
  @Test
  void theDetectionSoftReferencePolicyIsAddedOnlyWhenTheProjectSetNone() {
    assertEquals(java.util.Optional.of("-XX:SoftRefLRUPolicyMSPerMB=100"),
        ArgLine.detectionSoftReferences(List.of("-Xmx512m"), java.util.Map.of()));
    assertEquals(java.util.Optional.empty(),
        ArgLine.detectionSoftReferences(List.of("-XX:SoftRefLRUPolicyMSPerMB=0"), java.util.Map.of()));
    assertEquals(java.util.Optional.empty(), ArgLine.detectionSoftReferences(List.of(),
        java.util.Map.of("_JAVA_OPTIONS", "-Xss2m -XX:SoftRefLRUPolicyMSPerMB=2000")));
  }

  /**
   * Sized from the baseline JVM's peak heap: twice it plus 256 MB, never above what the argLine's own limit gives
   * (twice it plus 256 MB), and without one never at or above the baseline's maximum heap (the JVM's default): then
   * there is no limit at all.
   */
  @Test
  void theDetectionHeapFromTheBaselineIsTwiceItsPeakPlusTheAllowanceAtMostTheArgLinesOrTheDefault() {
    long mb = 1L << 20;
    long defaultMax = 6028 * mb;
    assertEquals(java.util.OptionalLong.of(2 * 300 * mb + 256 * mb),
        ArgLine.detectionHeapFromBaseline(List.of(), 300 * mb, defaultMax));
    assertEquals(java.util.OptionalLong.of(2 * 300 * mb + 256 * mb),
        ArgLine.detectionHeapFromBaseline(List.of(), 300 * mb, -1), "a baseline that named no maximum");
    assertEquals(java.util.OptionalLong.empty(), ArgLine.detectionHeapFromBaseline(List.of(), 6000 * mb, defaultMax),
        "a baseline that committed its whole default heap: twice that would raise the detection JVM's");
    assertEquals(java.util.OptionalLong.of(2 * 300 * mb + 256 * mb),
        ArgLine.detectionHeapFromBaseline(List.of("-Xmx1g"), 300 * mb, 1024 * mb));
    assertEquals(java.util.OptionalLong.of(1280 * mb),
        ArgLine.detectionHeapFromBaseline(List.of("-Xmx512m"), 512 * mb, 512 * mb),
        "a baseline that filled its argLine limit: that limit raised by its own rule");
    assertEquals("-Xmx857m", ArgLine.xmx(856 * mb + 1), "rounded up to whole megabytes");
    assertEquals("-Xmx856m", ArgLine.xmx(856 * mb));
  }

  /** A project's heap limit is doubled, plus 256 MB, for the detection JVM (the agent's shadows share the heap). */
  @Test
  void theDetectionHeapIsTwiceTheProjectsLimitPlusTheAllowance() {
    assertEquals(java.util.Optional.of("-Xmx1280m"), ArgLine.detectionHeap(List.of("-Xmx512m", "-Dx=1")));
    assertEquals(java.util.Optional.of("-Xmx4352m"), ArgLine.detectionHeap(List.of("-Xms1g", "-Xmx2G")));
    assertEquals(java.util.Optional.of("-Xmx768m"), ArgLine.detectionHeap(List.of("-XX:MaxHeapSize=268435456")));
    assertEquals(java.util.Optional.of("-Xmx257m"), ArgLine.detectionHeap(List.of("-Xmx300k")), "rounded up to MB");
    assertEquals(java.util.Optional.of("-Xmx2304m"), ArgLine.detectionHeap(List.of("-Xmx512m", "-Xmx1g")),
        "the last limit counts, as in the JVM");
    assertEquals(java.util.Optional.empty(), ArgLine.detectionHeap(List.of("-Xms1g", "-XX:MaxRAMPercentage=50")));
    assertEquals(java.util.Optional.empty(), ArgLine.detectionHeap(List.of("-Xmxlots")), "the JVM says what is wrong");
    assertEquals(-1, ArgLine.bytes(""));
    assertEquals(3L << 30, ArgLine.bytes("3g"));
  }

  @Test
  void anUnbalancedQuoteSaysWhereToFixIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ArgLine.tokens("-Dx=\"open"));
    assertTrue(e.getMessage().contains("<argLine>"), e.getMessage());
  }
}
