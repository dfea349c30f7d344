package dev.racetriage.agent.runtime;

import dev.racetriage.agent.detect.JsonText;
import dev.racetriage.agent.detect.RaceAggregator;
import dev.racetriage.agent.detect.RaceReportWriter;
import dev.racetriage.agent.detect.RunSummary;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the run's report file at JVM exit: a {@code "type":"status"} line saying whether the run can be trusted,
 * then the race lines and the summary line of {@link RaceReportWriter}. Status {@code error} when the agent options
 * were invalid or no application class was instrumented — a run that checked nothing must never read as "no races".
 *
 * <pre>{"type":"status","status":"ok","mode":"detect","message":null,"jdkClassesTrusted":41,"untrackedArrays":0}</pre>
 */
public final class RunReport {
  private RunReport() {
  }

  /** The status verdict of a finished run, and the message that explains an error. */
  public record Status(boolean ok, String message) {
  }

  /** @param startError why the agent did not start (invalid options, start-up failure), or null */
  public static Status statusOf(RunSummary summary, String startError) {
    if (startError != null) {
      return new Status(false, startError);
    }
    if (summary.classesInstrumented() == 0) {
      return new Status(false, "no application class was instrumented, so no access was checked: check that the"
          + " program's classes are loaded, and the include/exclude options");
    }
    return new Status(true, null);
  }

  /** @param untrackedArrays arrays too long to check element by element (their accesses went unchecked) */
  public static String statusLine(Status status, long trustedJdkClasses, long untrackedArrays) {
    StringBuilder sb = new StringBuilder(128);
    JsonText j = new JsonText(sb).beginObject();
    j.name("type").value("status");
    j.name("status").value(status.ok() ? "ok" : "error");
    j.name("mode").value("detect");
    j.name("message").value(status.message());
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
}
