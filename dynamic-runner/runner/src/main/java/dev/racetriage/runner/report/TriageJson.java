package dev.racetriage.runner.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.racetriage.prefilter.Candidate;
import dev.racetriage.runner.detect.DetectedRace;
import dev.racetriage.runner.triage.RaceFinding;
import dev.racetriage.runner.triage.TriageResult;
import dev.racetriage.runner.triage.TriageStats;

/**
 * The JSON report of {@code racetriage triage --format json}:
 * {@code {"races":[{"field","verdict","kinds" (WR, WW, container),"testCode","accesses","tests","trials":[{"heuristic","runs","failures","staleReads",
 * "medianMillis"}],"evidence","trustedBenign"}],"candidates":[],"stats":{...},"hungTests":[{"test","phase","limitMillis","threads"}],"warnings":[...]}}.
 */
public final class TriageJson {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private TriageJson() {}

  public static String render(TriageResult result, SourceLocator sources) {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode races = root.putArray("races");
    for (RaceFinding finding : result.races()) {
      DetectedRace race = finding.race();
      ObjectNode r = races.addObject();
      r.put("field", race.fieldKey());
      r.put("verdict", finding.verdict().label());
      ArrayNode kinds = r.putArray("kinds");
      if (race.wr() > 0) kinds.add("WR");
      if (race.ww() > 0) kinds.add("WW");
      // two threads' calls on an unsynchronised JDK container (pkg.Cls.map{}), as the agent's race line says
      if (dev.racetriage.runner.trial.ContainerRaces.isContainer(race.fieldKey())) kinds.add("container");
      r.put("count", race.count());
      r.put("testCode", sources.inTestCode(race));
      if (finding.predicted()) { // --predict: only another schedule races it; the witness says which lock order
        r.put("predicted", true).put("witness", race.witness());
      }
      ArrayNode accesses = r.putArray("accesses");
      access(accesses.addObject(), race.wr() > 0 ? "read" : "write", race.current(), sources);
      access(accesses.addObject(), "write", race.previous(), sources);
      ArrayNode tests = r.putArray("tests");
      race.tests().forEach(tests::add);
      ArrayNode trials = r.putArray("trials");
      for (RaceFinding.TrialSummary t : finding.trials()) {
        trials.addObject().put("heuristic", t.heuristic()).put("runs", t.runs()).put("failures", t.failures())
            .put("staleReads", t.staleReads()).put("medianMillis", t.medianMillis());
      }
      ObjectNode evidence = r.putObject("evidence");
      evidence.put("summary", finding.reason());
      if (finding.bestHeuristic() != null) {
        evidence.put("bestHeuristic", finding.bestHeuristic()).put("failureRate", finding.bestFailureRate());
      }
      if (finding.failureLine() != null) {
        evidence.put("failure", finding.failureLine());
      }
      if (finding.trustedBenign()) {
        r.putObject("trustedBenign").put("note", finding.trustedBenignNote());
      } else {
        r.putNull("trustedBenign");
      }
    }
    ArrayNode candidates = root.putArray("candidates");
    for (Candidate c : result.candidates()) {
      ObjectNode n = candidates.addObject();
      n.put("field", c.field()).put("file", c.file()).put("line", c.line()).put("confidence", c.confidence());
      ArrayNode patterns = n.putArray("patterns");
      c.patterns().stream().map(p -> p.pattern().id()).distinct().forEach(patterns::add);
      ArrayNode reasons = n.putArray("reasons");
      c.reasons().forEach(reason -> reasons.add(reason.toString()));
      n.put("raced", result.races().stream().anyMatch(r -> r.race().fieldKey().equals(c.field())));
    }
    TriageStats s = result.stats();
    ObjectNode stats = root.putObject("stats");
    stats.put("buildMillis", s.buildMillis()).put("baselineMillis", s.baselineMillis()).put("detectMillis", s.detectMillis())
        .put("trials", s.trials()).put("trialJvms", s.trialJvms()).put("trialMillis", s.trialMillis()).put("elapsedMillis", s.elapsedMillis())
        .put("tests", s.tests()).put("detectRuns", s.detectRuns())
        .put("predictionStoppedAfterEvents", s.predictionStoppedAfterEvents());
    ArrayNode late = stats.putArray("lateRaces");
    s.lateRaces().forEach(late::add);
    ArrayNode skipped = stats.putArray("uninstrumentedClasses");
    s.uninstrumentedClasses().forEach(c -> skipped.addObject().put("class", c.className()).put("reason", c.reason()));
    ArrayNode untracked = stats.putArray("untrackedArrays");
    s.untrackedArrays().forEach(a -> untracked.addObject().put("array", a.array()).put("type", a.type())
        .put("length", a.length()).put("count", a.count()));
    ArrayNode hung = root.putArray("hungTests");
    result.hungTests().forEach(h -> hung.addObject().put("test", h.test()).put("phase", h.phase())
        .put("limitMillis", h.limitMillis()).put("threads", h.threads()));
    ArrayNode warnings = root.putArray("warnings");
    result.warnings().forEach(warnings::add);
    try {
      return JSON.writeValueAsString(root);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot render the report", e);
    }
  }

  private static void access(ObjectNode node, String kind, DetectedRace.Access access, SourceLocator sources) {
    node.put("kind", kind).put("thread", access.thread()).put("class", access.className()).put("method", access.method());
    node.put("file", sources.locate(access.className(), access.file()).orElse(access.file()));
    node.put("line", access.line());
    ArrayNode stack = node.putArray("stack");
    access.stack().forEach(stack::add);
  }
}
