package dev.racetriage.runner.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.racetriage.runner.detect.DetectedRace;
import dev.racetriage.runner.triage.RaceFinding;
import dev.racetriage.runner.triage.TriageResult;
import dev.racetriage.store.verdicts.Verdict;
import java.util.Optional;

/**
 * SARIF 2.1.0 for code scanning: one rule per verdict, one result per race located at the access that found it,
 * the conflicting write as a related location. Trusted-benign races are reported with a suppression, not dropped.
 */
public final class TriageSarif {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private TriageSarif() {}

  public static String render(TriageResult result, SourceLocator sources) {
    ObjectNode root = JSON.createObjectNode();
    root.put("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    root.put("version", "2.1.0");
    ObjectNode run = root.putArray("runs").addObject();
    ObjectNode driver = run.putObject("tool").putObject("driver");
    driver.put("name", "racetriage");
    ArrayNode rules = driver.putArray("rules");
    for (Verdict v : Verdict.values()) {
      ObjectNode rule = rules.addObject();
      rule.put("id", ruleId(v));
      rule.putObject("shortDescription").put("text", description(v));
      rule.putObject("defaultConfiguration").put("level", level(v));
    }
    ArrayNode results = run.putArray("results");
    for (RaceFinding finding : result.races()) {
      DetectedRace race = finding.race();
      ObjectNode r = results.addObject();
      r.put("ruleId", ruleId(finding.verdict()));
      r.put("level", level(finding.verdict()));
      r.putObject("message").put("text", "Data race on " + race.fieldKey() + " (" + finding.verdict().label() + "): "
          + finding.reason());
      location(r.putArray("locations").addObject(), race.current(), sources);
      ObjectNode related = r.putArray("relatedLocations").addObject();
      related.put("id", 1);
      location(related, race.previous(), sources);
      related.putObject("message").put("text", "conflicting write in thread " + race.previous().thread());
      r.putObject("partialFingerprints").put("racetriage/field", race.fieldKey());
      ObjectNode properties = r.putObject("properties").put("field", race.fieldKey())
          .put("verdict", finding.verdict().label());
      boolean testCode = sources.inTestCode(race);
      properties.put("testCode", testCode);
      if (testCode) properties.putArray("tags").add("test-code");
      if (finding.trustedBenign()) {
        r.putArray("suppressions").addObject().put("kind", "external").put("justification", finding.trustedBenignNote());
      }
    }
    try {
      return JSON.writeValueAsString(root);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot render the SARIF report", e);
    }
  }

  private static void location(ObjectNode node, DetectedRace.Access access, SourceLocator sources) {
    ObjectNode physical = node.putObject("physicalLocation");
    Optional<String> file = sources.locate(access.className(), access.file());
    physical.putObject("artifactLocation").put("uri", file.orElse(access.file() == null ? access.className() : access.file()));
    if (access.line() > 0) {
      physical.putObject("region").put("startLine", access.line());
    }
  }

  static String ruleId(Verdict v) {
    return "racetriage/" + v.label() + "-race";
  }

  private static String level(Verdict v) {
    return switch (v) {
      case DESTRUCTIVE -> "error";
      case QOS, FLAKY, PENDING -> "warning";
      case BENIGN, UNEXERCISED -> "note";
    };
  }

  private static String description(Verdict v) {
    return switch (v) {
      case DESTRUCTIVE -> "A data race whose stale reads make a test fail";
      case QOS -> "A data race whose stale reads make tests significantly slower";
      case FLAKY -> "A data race touched by a test that also fails without stale reads";
      case UNEXERCISED -> "A data race for which no stale value could be served";
      case BENIGN -> "A data race whose stale reads change nothing the tests check";
      case PENDING -> "A data race detected by the agent and not classified yet";
    };
  }
}
