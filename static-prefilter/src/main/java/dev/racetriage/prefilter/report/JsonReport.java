package dev.racetriage.prefilter.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.racetriage.prefilter.Analysis;
import dev.racetriage.prefilter.Candidate;
import dev.racetriage.prefilter.facts.Access;
import dev.racetriage.prefilter.facts.HeldLock;
import dev.racetriage.prefilter.facts.PatternHit;
import dev.racetriage.prefilter.rank.Reason;
import java.nio.file.Path;

/**
 * {@code {"candidates":[{"field","file","line","confidence","patterns","reasons","accesses":[{"file","line","kind",
 * "locks"}]}],"stats":{"files","millis"}}}; patterns carry their id, line and fix, accesses also their method and
 * whether they are initialisation.
 */
public final class JsonReport {

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private JsonReport() {}

  public static String render(Analysis analysis, Path baseDir) {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode candidates = root.putArray("candidates");
    for (Candidate candidate : analysis.candidates()) {
      ObjectNode c = candidates.addObject();
      c.put("field", candidate.field());
      c.put("file", ReportPaths.relative(baseDir, candidate.file()));
      c.put("line", candidate.line());
      c.put("confidence", candidate.confidence());
      ArrayNode patterns = c.putArray("patterns");
      for (PatternHit hit : candidate.patterns()) {
        patterns.addObject().put("pattern", hit.pattern().id()).put("file", ReportPaths.relative(baseDir, hit.file()))
            .put("line", hit.line()).put("fix", hit.pattern().fix());
      }
      ArrayNode reasons = c.putArray("reasons");
      for (Reason reason : candidate.reasons()) {
        reasons.add(reason.toString());
      }
      ArrayNode accesses = c.putArray("accesses");
      for (Access access : candidate.accesses()) {
        ObjectNode a = accesses.addObject();
        a.put("file", ReportPaths.relative(baseDir, access.file()));
        a.put("line", access.line());
        a.put("kind", access.kind().label());
        ArrayNode locks = a.putArray("locks");
        for (HeldLock lock : access.locks()) {
          locks.add(lock.toString());
        }
        a.put("method", access.methodLabel());
        a.put("initialisation", access.initialisation());
      }
    }
    ArrayNode problems = root.putArray("problems");
    analysis.problems().forEach(problems::add);
    ObjectNode stats = root.putObject("stats");
    stats.put("files", analysis.files());
    stats.put("millis", analysis.millis());
    stats.put("classpath", analysis.classpath().status().name().toLowerCase(java.util.Locale.ROOT));
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the JSON report", e);
    }
  }
}
