package dev.racetriage.dashboard.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.racetriage.dashboard.api.RaceListing;
import dev.racetriage.dashboard.api.RaceRow;
import dev.racetriage.store.verdicts.Verdict;
import java.util.List;
import java.util.Locale;

/**
 * SARIF 2.1.0: one rule per verdict, one result per race located at its first access (the others are related
 * locations). A trusted-benign race is reported with an accepted external suppression carrying the team's note, so
 * code-scanning tools hide it without losing it. Paths found in the project are relative to {@code %SRCROOT%}, which
 * is left for the consumer to bind (the checkout root in code-scanning services), so no local path leaks into a
 * shared report.
 */
public final class SarifExport {
  public static final String SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
  static final String FINGERPRINT = "racetriage/field/v1";

  private SarifExport() {}

  /** {@code unreadable}: matching races whose rows could not be read, reported as a tool notification. */
  public static ObjectNode write(List<ExportedRace> races, int unreadable, String toolVersion, ObjectMapper json) {
    ObjectNode log = json.createObjectNode();
    log.put("$schema", SCHEMA);
    log.put("version", "2.1.0");
    ObjectNode run = log.putArray("runs").addObject();
    ObjectNode driver = run.putObject("tool").putObject("driver");
    driver.put("name", "racetriage");
    driver.put("version", toolVersion);
    ArrayNode rules = driver.putArray("rules");
    for (Verdict verdict : Verdict.values()) {
      ObjectNode rule = rules.addObject();
      rule.put("id", verdict.label());
      rule.put("name", ruleName(verdict));
      rule.putObject("shortDescription").put("text", description(verdict));
      rule.putObject("defaultConfiguration").put("level", level(verdict));
    }
    if (unreadable > 0) {
      ObjectNode invocation = run.putArray("invocations").addObject();
      invocation.put("executionSuccessful", true);
      ObjectNode notification = invocation.putArray("toolExecutionNotifications").addObject();
      notification.put("level", "warning");
      notification.putObject("message").put("text", RaceListing.note(unreadable));
    }
    ArrayNode results = run.putArray("results");
    for (ExportedRace race : races) {
      results.add(result(race, json));
    }
    return log;
  }

  private static ObjectNode result(ExportedRace exported, ObjectMapper json) {
    RaceRow race = exported.race();
    Verdict verdict = Verdict.fromLabel(race.verdict());
    ObjectNode result = json.createObjectNode();
    result.put("ruleId", verdict.label());
    result.put("ruleIndex", verdict.ordinal());
    result.put("level", level(verdict));
    String summary = exported.summary() == null ? "" : " — " + exported.summary();
    result.putObject("message").put("text",
        "Data race on " + race.id() + " (" + String.join(", ", race.kinds())
            + (exported.testCode() ? "; in test code" : "") + "): " + verdict.label() + summary);
    List<ExportedRace.Access> accesses = exported.accesses();
    if (!accesses.isEmpty()) {
      location(result.putArray("locations").addObject(), accesses.get(0), race.id());
      if (accesses.size() > 1) {
        ArrayNode related = result.putArray("relatedLocations");
        for (int i = 1; i < accesses.size(); i++) {
          ObjectNode loc = related.addObject();
          loc.put("id", i);
          location(loc, accesses.get(i), race.id());
        }
      }
    }
    result.putObject("partialFingerprints").put(FINGERPRINT, race.id());
    if (race.mark() != null) {
      ObjectNode suppression = result.putArray("suppressions").addObject();
      suppression.put("kind", "external");
      suppression.put("status", "accepted");
      suppression.put("justification", race.mark().note() + " (" + race.mark().author() + ")");
    }
    ObjectNode properties = result.putObject("properties");
    properties.put("field", race.id());
    properties.put("verdict", verdict.label());
    properties.put("triageState", race.state());
    properties.put("trials", race.trials());
    // a race in the tests' own code: code-scanning tools can filter on the tag
    properties.put("testCode", exported.testCode());
    if (exported.testCode()) {
      properties.putArray("tags").add("test-code");
    }
    ArrayNode tests = properties.putArray("tests");
    exported.tests().forEach(tests::add);
    if (exported.replayCommand() != null) {
      properties.put("replayCommand", exported.replayCommand());
    }
    return result;
  }

  private static void location(ObjectNode location, ExportedRace.Access access, String field) {
    ObjectNode physical = location.putObject("physicalLocation");
    ObjectNode artifact = physical.putObject("artifactLocation");
    if (access.projectPath() != null) {
      artifact.put("uri", access.projectPath());
      artifact.put("uriBaseId", "%SRCROOT%");
    } else {
      artifact.put("uri", access.file() == null ? "unknown" : access.file());
    }
    if (access.line() > 0) {
      physical.putObject("region").put("startLine", access.line());
    }
    location.putObject("message").put("text",
        access.type().toLowerCase(Locale.ROOT) + " of " + field + " in thread " + access.thread());
  }

  static String level(Verdict verdict) {
    return switch (verdict) {
      case DESTRUCTIVE -> "error";
      case QOS, FLAKY -> "warning";
      case UNEXERCISED, BENIGN, PENDING -> "note";
    };
  }

  private static String ruleName(Verdict verdict) {
    return switch (verdict) {
      case DESTRUCTIVE -> "DestructiveDataRace";
      case QOS -> "QosDataRace";
      case FLAKY -> "FlakyDataRace";
      case UNEXERCISED -> "UnexercisedDataRace";
      case BENIGN -> "BenignDataRace";
      case PENDING -> "UnclassifiedDataRace";
    };
  }

  private static String description(Verdict verdict) {
    return switch (verdict) {
      case DESTRUCTIVE -> "Stale values the Java Memory Model allows made a test fail.";
      case QOS -> "Stale values made the tests significantly slower, without failures.";
      case FLAKY -> "The test also fails without stale values: no conclusion about the race.";
      case UNEXERCISED -> "No stale value was ever served: the race was not really tested.";
      case BENIGN -> "Stale values were served; no failure, no slowdown.";
      case PENDING -> "Detected; not classified yet.";
    };
  }
}
