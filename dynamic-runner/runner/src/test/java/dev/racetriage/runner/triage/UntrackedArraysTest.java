package dev.racetriage.runner.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.runner.detect.DetectionReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The arrays bound from the command line to the detection agent, and the warning that names unchecked arrays. */
class UntrackedArraysTest {
  private static TriageOptions withBound(int bound) {
    return new TriageOptions(Path.of("p"), null, false, 3, List.of("sc"), 1, null, Duration.ofMinutes(1),
        Duration.ofMinutes(1), true, true, List.of(), 1, null, TriageOptions.DEFAULT_TEST_TIMEOUT,
        TriageOptions.DEFAULT_DETECT_TIMEOUT_FACTOR, false, false, bound);
  }

  @Test
  void theAgentGetsTheBoundOnlyWhenItIsNotItsDefault() {
    assertEquals("", TriagePipeline.detectAgentOptions(TriageOptions.defaults(Path.of("p"))));
    assertEquals(";arrays=1000", TriagePipeline.detectAgentOptions(withBound(1000)));
    assertEquals(";predictEvents=0", TriagePipeline.detectAgentOptions(TriageOptions.defaults(Path.of("p"))
        .withPredict(TriageOptions.Prediction.ALL)), "--predict: the whole run");
    assertEquals(";predict=false", TriagePipeline.detectAgentOptions(TriageOptions.defaults(Path.of("p"))
        .withPredict(TriageOptions.Prediction.OFF)), "--no-predict");
    assertEquals(";arrays=1000;predict=false",
        TriagePipeline.detectAgentOptions(withBound(1000).withPredict(TriageOptions.Prediction.OFF)));
    assertEquals(";containers=false", TriagePipeline.detectAgentOptions(TriageOptions.defaults(Path.of("p"))
        .withContainers(false)), "--no-containers");
    assertEquals("--max-array-elements must be 0 or more, not -1",
        assertThrows(IllegalArgumentException.class, () -> withBound(-1)).getMessage());
  }

  @Test
  void theWarningNamesEachArrayAndHowToCheckIt() {
    String warning = TriagePipeline.untrackedWarning("core", List.of(
        new DetectionReport.UntrackedArray("pkg.Grid.cells[]", "double", 5_000_000, 1),
        new DetectionReport.UntrackedArray("pkg.Buf.data[]", "long", 9_000_000, 3)), 4_194_304);
    assertTrue(warning.startsWith("Module core: 2 array(s) too long for the agent to check element by element (over"
        + " 4194304 elements)"), warning);
    assertTrue(warning.contains("pkg.Grid.cells[] (double, 5000000 elements), pkg.Buf.data[] (long, 9000000"
        + " elements, 3 arrays)"), warning);
    assertTrue(warning.contains("--max-array-elements"), warning);
  }

  @Test
  void thePredictionStopWarningNamesTheModuleTheBudgetAndHowToCoverTheWholeRun() {
    String warning = TriagePipeline.predictionStoppedWarning("core", 100_000);
    assertTrue(warning.startsWith("Module core: the predictive analysis stopped after 100000 events"), warning);
    assertTrue(warning.contains("happens-before only") && warning.contains("--predict"), warning);
  }

  @Test
  void aPredictionStopInSeveralModulesIsOneWarningNamingThemAll() {
    String warning = TriagePipeline.predictionStoppedWarning(java.util.List.of("core", "javase", "web"), 100_000);
    assertTrue(warning.startsWith("Modules core, javase, web: in each, the predictive analysis stopped after 100000"
        + " events"), warning);
    assertTrue(warning.contains("--predict"), warning);
  }
}
