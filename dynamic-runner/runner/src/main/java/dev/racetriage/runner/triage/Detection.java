package dev.racetriage.runner.triage;

import dev.racetriage.prefilter.Candidate;
import dev.racetriage.runner.detect.DetectedRace;
import dev.racetriage.runner.detect.DetectionReport;
import dev.racetriage.runner.fork.TestJvm;
import dev.racetriage.runner.project.TestModule;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What steps 1 to 3 of the pipeline learned about a project: its static candidates, a test JVM per module, the
 * tests that passed their baseline (trials replay only those), the ones that failed it every time, the ones that
 * failed it intermittently (test name to its runs without the agent, "k of n runs"; they are tried too), and the
 * races with the tests that touched them. {@code detectRuns}: how many times the detection JVMs ran the tests (the most of any module);
 * {@code lateRaces}: the raced fields that the first detection run did not show and a repeat did;
 * {@code fingerprint}: the hash of the class files the tests ran ({@link ClassFingerprint}); {@code agentVersion}: the
 * hash of the agent jar — together they decide which stored trials a re-run may reuse; {@code hungTests}: tests
 * stopped at their limit in the baseline or under the agent; {@code complete}: every module's detection ran its
 * tests to the end (a run cut short cannot tell that a race is gone); {@code leftOutRaces}: raced fields of library
 * classes that were left out (not triaged, and not gone either); {@code untrackedArrays}: arrays the agent left
 * unchecked (longer than its bound); {@code predictionStoppedAfterEvents}: the predictive analysis spent its budget
 * after this many events in some module's JVM (the largest; 0: nowhere).
 */
public record Detection(
    Path root,
    List<Candidate> candidates,
    Map<TestModule, TestJvm> jvms,
    Map<String, TriagePipeline.TestRef> testsByName,
    Set<String> baselineFailures,
    Map<String, WithoutAgent> intermittentFailures,
    Map<String, DetectedRace> races,
    List<DetectionReport.SkippedClass> skipped,
    int tests,
    long buildMillis,
    long baselineMillis,
    long detectMillis,
    Path work,
    boolean canJumble,
    int detectRuns,
    List<String> lateRaces,
    String fingerprint,
    String agentVersion,
    List<HungTest> hungTests,
    boolean complete,
    Set<String> leftOutRaces,
    List<DetectionReport.UntrackedArray> untrackedArrays,
    long predictionStoppedAfterEvents) {

  public Detection {
    leftOutRaces = Set.copyOf(leftOutRaces);
    untrackedArrays = List.copyOf(untrackedArrays);
    lateRaces = List.copyOf(lateRaces);
    hungTests = List.copyOf(hungTests);
    intermittentFailures = Map.copyOf(intermittentFailures);
  }

  /** A test's runs without the agent (the baseline and its reruns): how many failed of how many; "k of n runs". */
  public record WithoutAgent(int failures, int runs) {
    @Override
    public String toString() {
      return failures + " of " + runs + " runs";
    }
  }

  /** The races, the prefilter's most confident first: a budget is spent where harm is likeliest. */
  public List<DetectedRace> byConfidence() {
    Map<String, Double> confidence = new HashMap<>();
    candidates.forEach(c -> confidence.put(c.field(), c.confidence()));
    List<DetectedRace> ordered = new ArrayList<>(races.values());
    ordered.sort(Comparator.comparing((DetectedRace r) -> -confidence.getOrDefault(r.fieldKey(), 0.0)));
    return ordered;
  }
}
