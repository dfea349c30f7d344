package dev.racetriage.prefilter.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.racetriage.prefilter.Analysis;
import dev.racetriage.prefilter.Candidate;
import dev.racetriage.prefilter.facts.Access;
import dev.racetriage.prefilter.facts.PatternHit;
import dev.racetriage.prefilter.facts.RacePattern;
import dev.racetriage.prefilter.rank.Reason;
import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * SARIF 2.1.0: one run, the driver {@code racetriage} with a rule for candidate racy fields and one per pattern; one
 * result per candidate (rule: its first pattern, else the generic rule) at the field's declaration, with the accesses
 * as related locations. URIs are relative to the scanned directory ({@code %SRCROOT%}).
 */
public final class SarifReport {

  public static final String GENERIC_RULE = "racy-field-candidate";
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private SarifReport() {}

  public static String render(Analysis analysis, Path baseDir, String toolVersion) {
    ObjectNode root = JSON.createObjectNode();
    root.put("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    root.put("version", "2.1.0");
    ObjectNode run = root.putArray("runs").addObject();
    ObjectNode driver = run.putObject("tool").putObject("driver");
    driver.put("name", "racetriage");
    driver.put("version", toolVersion);
    driver.put("informationUri", "https://github.com/racetriage/racetriage");
    ArrayNode rules = driver.putArray("rules");
    rule(rules, GENERIC_RULE, "Candidate racy field",
        "A non-final, non-volatile field written outside initialisation and accessed from several threads with no"
            + " common lock.",
        "Guard every access with one lock, make the field volatile, or confine it to one thread.");
    for (RacePattern pattern : RacePattern.values()) {
      rule(rules, pattern.id(), pattern.id(), pattern.description(), pattern.fix());
    }
    run.putObject("originalUriBaseIds").putObject("%SRCROOT%").put("uri", baseDir.toUri().toString());
    ArrayNode results = run.putArray("results");
    for (Candidate candidate : analysis.candidates()) {
      ObjectNode result = results.addObject();
      String ruleId = candidate.patterns().isEmpty() ? GENERIC_RULE : candidate.patterns().get(0).pattern().id();
      result.put("ruleId", ruleId);
      result.put("level", candidate.confidence() >= 0.6 ? "warning" : "note");
      result.putObject("message").put("text", "Candidate racy field " + candidate.field() + " (confidence "
          + candidate.confidence() + "): " + candidate.reasons().stream().map(Reason::toString)
              .collect(Collectors.joining("; ")));
      location(result.putArray("locations").addObject(), baseDir, candidate.file(), candidate.line());
      ArrayNode related = result.putArray("relatedLocations");
      int id = 0;
      for (Access access : candidate.accesses()) {
        ObjectNode r = related.addObject();
        r.put("id", id++);
        location(r, baseDir, access.file(), access.line());
        r.putObject("message").put("text", access.kind().label() + " in " + access.methodLabel()
            + (access.locks().isEmpty() ? " without lock" : " under " + access.locks()));
      }
      ObjectNode properties = result.putObject("properties");
      properties.put("fieldKey", candidate.field());
      properties.put("confidence", candidate.confidence());
      ArrayNode patterns = properties.putArray("patterns");
      for (PatternHit hit : candidate.patterns()) {
        patterns.add(hit.pattern().id());
      }
      result.putObject("partialFingerprints").put("fieldKey/v1", candidate.field());
    }
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the SARIF report", e);
    }
  }

  private static void rule(ArrayNode rules, String id, String name, String description, String help) {
    ObjectNode rule = rules.addObject();
    rule.put("id", id);
    rule.put("name", name);
    rule.putObject("shortDescription").put("text", description);
    rule.putObject("help").put("text", help);
  }

  private static void location(ObjectNode holder, Path baseDir, String file, int line) {
    ObjectNode physical = holder.putObject("physicalLocation");
    physical.putObject("artifactLocation").put("uri", ReportPaths.relative(baseDir, file)).put("uriBaseId",
        "%SRCROOT%");
    physical.putObject("region").put("startLine", Math.max(1, line));
  }
}
