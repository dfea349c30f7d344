package dev.racetriage.runner.detect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent's detect-mode report file (JSON lines, schema in the agent's {@code RaceReportWriter}): the raced fields,
 * then a summary. {@code complete} is false when the summary line is missing — the JVM died before the agent could
 * write it — so an empty race list is never mistaken for "no races".
 */
public record DetectionReport(
    List<DetectedRace> races, long classesInstrumented, List<SkippedClass> skipped, long internalErrors, boolean complete) {

  private static final ObjectMapper JSON = new ObjectMapper();

  public DetectionReport {
    races = List.copyOf(races);
    skipped = List.copyOf(skipped);
  }

  /** A class the agent left alone, and why (class-file version, method too large, parse failure...). */
  public record SkippedClass(String className, String reason) {}

  public static DetectionReport read(Path file) throws IOException {
    List<DetectedRace> races = new ArrayList<>();
    List<SkippedClass> skipped = new ArrayList<>();
    long instrumented = 0;
    long internalErrors = 0;
    boolean complete = false;
    if (!Files.isRegularFile(file)) {
      return new DetectionReport(races, 0, skipped, 0, false);
    }
    for (String line : Files.readAllLines(file)) {
      if (line.isBlank()) continue;
      JsonNode node = JSON.readTree(line);
      switch (node.path("type").asText()) {
        case "race" -> races.add(race(node));
        case "summary" -> {
          complete = true;
          instrumented = node.path("classesInstrumented").asLong();
          internalErrors = node.path("internalErrors").asLong();
          for (JsonNode c : node.path("classesSkipped")) {
            skipped.add(new SkippedClass(c.path("class").asText(), c.path("reason").asText()));
          }
        }
        default -> { }
      }
    }
    return new DetectionReport(races, instrumented, skipped, internalErrors, complete);
  }

  private static DetectedRace race(JsonNode node) {
    List<DetectedRace.SitePair> pairs = new ArrayList<>();
    for (JsonNode p : node.path("sitePairs")) {
      pairs.add(new DetectedRace.SitePair(p.path("kind").asText(), access(p.path("current")), access(p.path("previous"))));
    }
    List<String> tests = new ArrayList<>();
    node.path("tests").forEach(t -> tests.add(t.asText()));
    List<Integer> indices = new ArrayList<>(); // absent in an older agent's report: no indices, trials sample 0 and 1
    node.path("indices").forEach(i -> indices.add(i.asInt()));
    return new DetectedRace(node.path("field").asText(), node.path("count").asLong(), node.path("wr").asLong(),
        node.path("ww").asLong(), access(node.path("current")), access(node.path("previous")), pairs, tests, indices);
  }

  private static DetectedRace.Access access(JsonNode a) {
    List<String> stack = new ArrayList<>();
    a.path("stack").forEach(f -> stack.add(f.asText()));
    JsonNode file = a.path("file");
    return new DetectedRace.Access(a.path("thread").asText(null), a.path("class").asText(), a.path("method").asText(),
        file.isNull() || file.isMissingNode() ? null : file.asText(), a.path("line").asInt(-1), stack);
  }
}
