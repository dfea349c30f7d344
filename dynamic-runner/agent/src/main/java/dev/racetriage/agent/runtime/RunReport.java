package dev.racetriage.agent.runtime;

import dev.racetriage.agent.detect.JsonText;
import dev.racetriage.agent.detect.RaceAggregator;
import dev.racetriage.agent.detect.RaceReportWriter;
import dev.racetriage.agent.detect.RunSummary;
import dev.racetriage.agent.jumble.FieldStats;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The run's report file: a {@code "type":"status"} line saying whether the run can be trusted, then the race,
 * progress and summary lines of {@link RaceReportWriter}. Status {@code error} when the agent options were invalid or
 * no application class was instrumented — a run that checked nothing must never read as "no races". In detect mode
 * the file is written while the program runs ({@link ReportStream}): its status line says {@code running} until the
 * exit writes the verdict over it in place (padded with spaces to a fixed width), so the file of a killed JVM says it
 * is partial. Jumble mode, and a run whose agent did not start, write the whole file at exit ({@link #write},
 * {@link #writeJumble}).
 *
 * <pre>{"type":"status","status":"ok","mode":"detect","message":null,"jdkClassesTrusted":41,"untrackedArrays":0}</pre>
 *
 * <p>In jumble mode the race lines are replaced by one line per jumbled field (reads served through its write
 * buffers, and those that returned a value other than the latest write):
 *
 * <pre>{"type":"jumble","field":"pkg.C.f","heuristic":"oldest","seed":42,"reads":N,"staleReads":M,
 *  "readsWithChoice":K,"writes":W,"locations":L,"maxBufferCompressed":C,"maxBufferUncompressed":U,
 *  "removedOldest":R,"sameChoicesAs":["oldest-but-different",…]}</pre>
 *
 * <p>{@code sameChoicesAs}: the other adversarial heuristics that would have made this very run, serving every read
 * with a choice alike with the same random draws ({@link dev.racetriage.agent.jumble.SameChoices}); with the same seed
 * for {@code random} and {@code random-but-different}.
 *
 * <p>{@code locations}, {@code writes} and the two buffer maxima are JUMBLE Figure 10's Num. Instances, Num. Writes
 * and Max. Buffer Size with / without compression (see {@link FieldStats}).
 */
public final class RunReport {
  private RunReport() {
  }

  /** The status verdict of a finished run, and the message that explains an error. */
  public record Status(boolean ok, String message) {
  }

  /** Why a run that instrumented no application class is an error. */
  static final String NOTHING_INSTRUMENTED = "no application class was instrumented, so no access was checked: check"
      + " that the program's classes are loaded, and the include/exclude options";
  /** The message of the status line of a streamed report while its JVM runs (see {@link ReportStream}). */
  static final String RUNNING_MESSAGE = "the JVM had not exited when this report was last written: the races below"
      + " are those found until then";

  /** @param startError why the agent did not start (invalid options, start-up failure), or null */
  public static Status statusOf(RunSummary summary, String startError) {
    if (startError != null) {
      return new Status(false, startError);
    }
    if (summary.classesInstrumented() == 0) {
      return new Status(false, NOTHING_INSTRUMENTED);
    }
    return new Status(true, null);
  }

  /** @param untrackedArrays arrays too long to check element by element (their accesses went unchecked) */
  public static String statusLine(Status status, long trustedJdkClasses, long untrackedArrays) {
    return statusLine(status, "detect", trustedJdkClasses, untrackedArrays);
  }

  public static String statusLine(Status status, String mode, long trustedJdkClasses, long untrackedArrays) {
    return statusLine(status.ok() ? "ok" : "error", status.message(), mode, trustedJdkClasses, untrackedArrays);
  }

  /** @param verdict {@code ok}, {@code error}, or {@code running} (a streamed report whose JVM has not exited) */
  static String statusLine(String verdict, String message, String mode, long trustedJdkClasses,
                           long untrackedArrays) {
    StringBuilder sb = new StringBuilder(128);
    JsonText j = new JsonText(sb).beginObject();
    j.name("type").value("status");
    j.name("status").value(verdict);
    j.name("mode").value(mode);
    j.name("message").value(message);
    j.name("jdkClassesTrusted").value(trustedJdkClasses);
    j.name("untrackedArrays").value(untrackedArrays);
    j.endObject();
    return sb.toString();
  }

  public static void write(Path file, Status status, long trustedJdkClasses, long untrackedArrays,
                           RaceAggregator races, RunSummary summary) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(statusLine(status, trustedJdkClasses, untrackedArrays));
      out.write('\n');
      RaceReportWriter.write(out, races.fields(), races.totalReports(), summary);
    }
  }

  /** The jumble-mode report: status, one line per jumbled field, the summary. */
  public static void writeJumble(Path file, Status status, long trustedJdkClasses, String heuristic, long seed,
                                 List<FieldStats> jumbled, RunSummary summary) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(statusLine(status, "jumble", trustedJdkClasses, 0));
      out.write('\n');
      for (FieldStats f : jumbled) {
        out.write(jumbleLine(f, heuristic, seed));
        out.write('\n');
      }
      RaceReportWriter.write(out, List.of(), 0, summary);
    }
  }

  public static String jumbleLine(FieldStats f, String heuristic, long seed) {
    StringBuilder sb = new StringBuilder(192);
    JsonText j = new JsonText(sb).beginObject();
    j.name("type").value("jumble");
    j.name("field").value(f.fieldKey());
    j.name("heuristic").value(heuristic);
    j.name("seed").value(seed);
    counters(j, f, heuristic);
    j.endObject();
    return sb.toString();
  }

  /**
   * The field's counters as members of the object {@code j} is writing (the report line, the trial server's answer),
   * for a run under {@code heuristic}.
   */
  public static void counters(JsonText j, FieldStats f, String heuristic) {
    j.name("reads").value(f.reads());
    j.name("staleReads").value(f.staleReads());
    j.name("readsWithChoice").value(f.readsWithChoice());
    j.name("writes").value(f.writes());
    j.name("locations").value(f.locations());
    j.name("maxBufferCompressed").value(f.maxBufferCompressed());
    j.name("maxBufferUncompressed").value(f.maxBufferUncompressed());
    j.name("removedOldest").value(f.removedOldest());
    // the other heuristics that would have made this very run (none for a container's calls, which no buffer serves)
    j.name("sameChoicesAs").beginArray();
    String[] alike = f.fieldKey().endsWith("{}") ? new String[0]
        : dev.racetriage.agent.jumble.SameChoices.alike(heuristic, f.unlikeHeuristics());
    for (String h : alike) {
      j.value(h);
    }
    j.endArray();
  }
}
