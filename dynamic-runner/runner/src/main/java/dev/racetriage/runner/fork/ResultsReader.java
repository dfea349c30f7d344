package dev.racetriage.runner.fork;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racetriage.runner.process.ExternalCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one test JVM's results file (the launcher's JSON lines) into outcomes: a test with a {@code finished} line has
 * its status; one the watchdog reported {@code hung} is {@code HUNG}; one still running when the JVM ended was cut
 * off at the deadline ({@code TIMED_OUT}) or ended the JVM itself ({@code CRASHED}).
 */
final class ResultsReader {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One JVM's result, and the units (unique ids that existed at discovery) that stopped it: what a continuing JVM
   * must skip besides the finished tests.
   */
  record Attempt(TestRunResult run, Set<String> stoppedUnits) {}

  private ResultsReader() {}

  static Attempt read(Path results, ExternalCommand.Outcome outcome) throws IOException {
    Map<String, TestOutcome> byId = new LinkedHashMap<>();
    Map<String, JsonNode> running = new LinkedHashMap<>();
    Set<String> stoppedUnits = new LinkedHashSet<>();
    boolean completed = false;
    if (Files.isRegularFile(results)) {
      for (String line : Files.readAllLines(results)) {
        if (line.isBlank()) continue;
        JsonNode event;
        try {
          event = JSON.readTree(line);
        } catch (IOException torn) {
          continue; // the last line of a killed JVM may be cut short
        }
        String id = event.path("id").asText();
        switch (event.path("event").asText()) {
          case "started" -> running.put(id, event);
          case "finished" -> {
            running.remove(id);
            byId.put(id, outcome(event, status(event.path("status").asText()), event.path("millis").asLong(), null));
          }
          case "skipped" -> byId.put(id, outcome(event, TestOutcome.Status.SKIPPED, 0, null));
          case "hung" -> {
            running.remove(id);
            byId.put(id, outcome(event, TestOutcome.Status.HUNG, event.path("millis").asLong(),
                event.path("threads").asText()));
            stoppedUnits.add(event.path("resumeSkip").asText(id));
          }
          case "summary" -> completed = true;
          default -> { }
        }
      }
    }
    TestOutcome.Status cutOff = outcome.timedOut() ? TestOutcome.Status.TIMED_OUT : TestOutcome.Status.CRASHED;
    for (Map.Entry<String, JsonNode> entry : running.entrySet()) {
      byId.put(entry.getKey(), outcome(entry.getValue(), cutOff, outcome.elapsed().toMillis(), null));
      stoppedUnits.add(entry.getValue().path("unit").asText(entry.getKey()));
    }
    TestRunResult run = new TestRunResult(new ArrayList<>(byId.values()), completed && outcome.exitCode() == 0,
        outcome.timedOut(), outcome.exitCode(), outcome.elapsed(), results, outcome.log());
    return new Attempt(run, stoppedUnits);
  }

  /**
   * What the JVMs of one run without the agent said of their heaps ({@code heapPeakBytes} and {@code heapMaxBytes} of
   * a {@code summary} or {@code hung} line, written with {@code --heap-peak}): the largest peak committed heap and
   * the largest maximum heap. Empty when one of them named none: a JVM that crashed or exited before its summary may
   * have used more.
   */
  static java.util.Optional<BaselineHeap> baselineHeap(List<Path> resultsFiles) {
    long peak = -1;
    long max = -1;
    for (Path file : resultsFiles) {
      long ownPeak = -1;
      try {
        if (Files.isRegularFile(file)) {
          for (String line : Files.readAllLines(file)) {
            if (!line.contains("\"heapPeakBytes\"")) continue;
            try {
              JsonNode event = JSON.readTree(line);
              ownPeak = Math.max(ownPeak, event.path("heapPeakBytes").asLong(-1));
              max = Math.max(max, event.path("heapMaxBytes").asLong(-1));
            } catch (IOException torn) {
              // a line cut short says nothing
            }
          }
        }
      } catch (IOException | java.io.UncheckedIOException e) {
        return java.util.Optional.empty();
      }
      if (ownPeak <= 0) {
        return java.util.Optional.empty();
      }
      peak = Math.max(peak, ownPeak);
    }
    return peak > 0 ? java.util.Optional.of(new BaselineHeap(peak, max)) : java.util.Optional.empty();
  }

  /** A baseline's heap: its JVMs' largest peak committed heap and largest maximum heap (-1: not named). */
  record BaselineHeap(long peakBytes, long maxBytes) {}

  private static TestOutcome outcome(JsonNode event, TestOutcome.Status status, long millis, String threads) {
    JsonNode failure = event.path("failure");
    TestOutcome.Failure f = failure.isObject()
        ? new TestOutcome.Failure(failure.path("type").asText(), text(failure.path("message")), failure.path("stack").asText())
        : null;
    return new TestOutcome(event.path("id").asText(), text(event.path("class")), text(event.path("method")),
        event.path("name").asText(), status, millis, f, threads);
  }

  private static String text(JsonNode node) {
    return node.isMissingNode() || node.isNull() ? null : node.asText();
  }

  private static TestOutcome.Status status(String status) {
    return switch (status) {
      case "passed" -> TestOutcome.Status.PASSED;
      case "aborted" -> TestOutcome.Status.ABORTED;
      default -> TestOutcome.Status.FAILED;
    };
  }
}
