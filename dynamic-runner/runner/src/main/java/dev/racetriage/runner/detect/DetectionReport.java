package dev.racetriage.runner.detect;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The agent's detect-mode report file (JSON lines, schema in the agent's {@code RaceReportWriter}), which the agent
 * writes while the JVM runs: a status line, then cumulative race lines — a field's line is repeated whenever it grew,
 * and its last line is its state — and progress lines, and at exit the summary. {@code complete} is true when the
 * summary line is there; without it the JVM died first (killed at a time limit, crashed), and {@code races} are those
 * the agent had written until then, which the runner may still use when {@link #partial()}. A missing file or one
 * without the status line means the agent never started, so an empty race list is never mistaken for "no races".
 *
 * @param classesInstrumented from the summary; in a partial report, from the last progress line (0 if none): the
 *                            classes instrumented until the agent last wrote
 * @param internalErrors      the same, for the agent's internal errors
 * @param started             the agent wrote its status line (it started, and the file is its report)
 * @param tornLastLine        the last line was cut short (the JVM was killed while writing it) and was skipped
 * @param predictionStoppedAfterEvents the agent's predictive analysis spent its budget after this many events and
 *                            stopped (0: it did not, or prediction was off): races only another schedule of the rest
 *                            of the run would expose were not looked for
 */
public record DetectionReport(List<DetectedRace> races, long classesInstrumented, List<SkippedClass> skipped,
    long internalErrors, boolean complete, boolean started, boolean tornLastLine, List<UntrackedArray> untrackedArrays,
    long predictionStoppedAfterEvents) {

  private static final ObjectMapper JSON = new ObjectMapper();

  public DetectionReport {
    races = List.copyOf(races);
    skipped = List.copyOf(skipped);
    untrackedArrays = List.copyOf(untrackedArrays);
  }

  /** A report as read before streaming: a complete file is one the agent started. */
  public DetectionReport(List<DetectedRace> races, long classesInstrumented, List<SkippedClass> skipped,
      long internalErrors, boolean complete) {
    this(races, classesInstrumented, skipped, internalErrors, complete, complete, false, List.of(), 0);
  }

  /**
   * An array the agent did not check element by element (longer than its {@code arrays=} bound): races on its
   * elements cannot be seen. {@code array} is its key ({@code pkg.Cls.f[]}), {@code type} the element type,
   * {@code length} the longest such array, {@code count} how many arrays had that key.
   */
  public record UntrackedArray(String array, String type, long length, long count) {
    /** One line for people: {@code pkg.Cls.f[] (double, 5000000 elements)}. */
    public String describe() {
      return array + " (" + type + ", " + length + " elements" + (count > 1 ? ", " + count + " arrays" : "") + ")";
    }

    /** {@link #describe()} of each, comma-separated. */
    public static String describeAll(List<UntrackedArray> arrays) {
      return String.join(", ", arrays.stream().map(UntrackedArray::describe).toList());
    }
  }

  /**
   * The reports of several JVMs that ran one module's tests in turn (a hung test stopped one, the next ran the rest)
   * as one: races merged by field, the classes instrumented of the JVM that instrumented most, the skipped classes
   * and internal errors of all. It is complete when the last JVM's report is: that JVM ran the selection to its end.
   */
  public static DetectionReport readAll(List<Path> files) throws IOException {
    Map<String, DetectedRace> races = new LinkedHashMap<>();
    List<SkippedClass> skipped = new ArrayList<>();
    Map<String, UntrackedArray> untracked = new LinkedHashMap<>();
    long instrumented = 0;
    long errors = 0;
    long predictionStopped = 0;
    boolean started = false;
    boolean torn = false;
    DetectionReport last = null;
    for (Path file : files) {
      last = read(file);
      last.races().forEach(r -> races.merge(r.fieldKey(), r, DetectedRace::mergedWith));
      last.skipped().stream().filter(c -> !skipped.contains(c)).forEach(skipped::add);
      last.untrackedArrays().forEach(a -> untracked.merge(a.array(), a, DetectionReport::larger));
      instrumented = Math.max(instrumented, last.classesInstrumented());
      errors += last.internalErrors();
      predictionStopped = Math.max(predictionStopped, last.predictionStoppedAfterEvents());
      started |= last.started();
      torn |= last.tornLastLine();
    }
    return new DetectionReport(new ArrayList<>(races.values()), instrumented, skipped, errors,
        last != null && last.complete(), started, torn, new ArrayList<>(untracked.values()), predictionStopped);
  }

  /** The same key in two JVMs' reports (the JVMs ran different tests): the longer array, the larger count. */
  private static UntrackedArray larger(UntrackedArray a, UntrackedArray b) {
    return new UntrackedArray(a.array(), a.type(), Math.max(a.length(), b.length()), Math.max(a.count(), b.count()));
  }

  /** The agent started but the JVM ended before the summary: the races are those written until then. */
  public boolean partial() {
    return started && !complete;
  }

  /** A class the agent left alone, and why (class-file version, method too large, parse failure...). */
  public record SkippedClass(String className, String reason) {}

  public static DetectionReport read(Path file) throws IOException {
    Map<String, DetectedRace> races = new LinkedHashMap<>(); // first-seen order, the last line of each field
    List<SkippedClass> skipped = new ArrayList<>();
    List<UntrackedArray> untracked = new ArrayList<>();
    long instrumented = 0;
    long internalErrors = 0;
    long predictionStopped = 0;
    boolean complete = false;
    boolean started = false;
    boolean torn = false;
    if (!Files.isRegularFile(file)) {
      return new DetectionReport(List.of(), 0, skipped, 0, false, false, false, List.of(), 0);
    }
    // decoded leniently: a JVM killed mid-write may have cut a character in two
    List<String> lines = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).lines()
        .filter(line -> !line.isBlank()).toList();
    for (int i = 0; i < lines.size(); i++) {
      JsonNode node;
      try {
        node = JSON.readTree(lines.get(i));
      } catch (JsonProcessingException e) {
        if (i == lines.size() - 1) {
          torn = true; // the line being written when the JVM died
          continue;
        }
        throw new IOException("The agent's report " + file + " has an unreadable line " + (i + 1) + " before its"
            + " end (" + e.getOriginalMessage() + "); it was not written by this agent, or was damaged afterwards."
            + " Run detection again.", e);
      }
      switch (node.path("type").asText()) {
        case "status" -> started = true;
        case "race" -> {
          DetectedRace race = race(node);
          races.put(race.fieldKey(), race);
        }
        case "progress" -> {
          instrumented = node.path("classesInstrumented").asLong();
          internalErrors = node.path("internalErrors").asLong();
        }
        case "summary" -> {
          complete = true;
          instrumented = node.path("classesInstrumented").asLong();
          internalErrors = node.path("internalErrors").asLong();
          for (JsonNode c : node.path("classesSkipped")) {
            skipped.add(new SkippedClass(c.path("class").asText(), c.path("reason").asText()));
          }
          predictionStopped = node.path("predictionStoppedAfterEvents").asLong(0); // absent in an older agent's
          for (JsonNode a : node.path("untrackedArrays")) { // absent in an older agent's report
            untracked.add(new UntrackedArray(a.path("array").asText(), a.path("type").asText(),
                a.path("length").asLong(), a.path("count").asLong(1)));
          }
        }
        default -> { }
      }
    }
    return new DetectionReport(new ArrayList<>(races.values()), instrumented, skipped, internalErrors, complete,
        started || complete, torn, untracked, predictionStopped);
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
        node.path("ww").asLong(), access(node.path("current")), access(node.path("previous")), pairs, tests, indices,
        node.path("predicted").asBoolean(false), node.path("witness").asText(null));
  }

  private static DetectedRace.Access access(JsonNode a) {
    List<String> stack = new ArrayList<>();
    a.path("stack").forEach(f -> stack.add(f.asText()));
    JsonNode file = a.path("file");
    return new DetectedRace.Access(a.path("thread").asText(null), a.path("class").asText(), a.path("method").asText(),
        file.isNull() || file.isMissingNode() ? null : file.asText(), a.path("line").asInt(-1), stack);
  }
}
