package dev.racetriage.agent.runtime;

import dev.racetriage.agent.detect.FieldRaces;
import dev.racetriage.agent.detect.RaceAggregator;
import dev.racetriage.agent.detect.RaceReportWriter;
import dev.racetriage.agent.detect.RunSummary;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The detect-mode report file, written while the program runs, so that a JVM killed at a time limit still leaves the
 * races it saw. Opened at start-up with a status line {@code "status":"running"}; each {@link #flush} appends a
 * cumulative race line for every field that first raced or gained a test, site pair or index since the last flush
 * (that field's state so far, schema of {@link RaceReportWriter}) and a {@code "type":"progress"} line, and forces the
 * file to disk; {@link #close} appends the lines of the fields whose counts moved since, the summary, and writes the
 * final status into the first line's slot (padded with spaces to the width reserved at start, so nothing moves).
 * The last line of a field is its state when it was written; in a complete file, its final state.
 *
 * <p>One lock serialises the flusher thread, {@link #flushNow} and the exit hook: lines are written whole, and the
 * summary once. The lock and the aggregator's monitor are the agent's own (agent classes are never instrumented),
 * and every thread that writes here is marked busy first, so the file writes produce no events and order no program
 * threads. Nothing here runs inside an access hook. The file is a {@link RandomAccessFile}, not a {@code FileChannel}:
 * an interrupt of a thread that flushes (the launcher's, at a test time-out) would close a channel for good.
 */
public final class ReportStream {
  /** The stream of this JVM once it is flushing (detect mode), for {@link #flushNow}; null otherwise. */
  private static volatile ReportStream active;

  private final Path file;
  private final RandomAccessFile out;
  private final RaceAggregator races;
  private final RunSummary summary;
  private final PrintStream err;
  /** The width in bytes of the first line, which the final status overwrites in place. */
  private final int statusWidth;
  private final Object lock = new Object();
  private boolean closed;
  private IOException failure;
  /** The classes instrumented and internal errors of the last progress line (-1: none written yet). */
  private long progressInstrumented = -1;
  private long progressErrors = -1;

  private ReportStream(Path file, RandomAccessFile out, RaceAggregator races, RunSummary summary, PrintStream err,
                       int statusWidth) {
    this.file = file;
    this.out = out;
    this.races = races;
    this.summary = summary;
    this.err = err;
    this.statusWidth = statusWidth;
  }

  /**
   * Creates (or empties) the report file and writes the running status line, so a run that dies at once still
   * leaves a file that says it did not finish.
   *
   * @param trustedJdkClasses the JDK classes instrumented as trusted so far (the final status has the last count)
   */
  public static ReportStream open(Path file, RaceAggregator races, RunSummary summary, long trustedJdkClasses,
                                  PrintStream err) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw");
    byte[] running = utf8(RunReport.statusLine("running", RunReport.RUNNING_MESSAGE, "detect", trustedJdkClasses, 0));
    // wide enough for either final verdict with the largest counts
    int width = Math.max(running.length, Math.max(
        utf8(RunReport.statusLine(new RunReport.Status(true, null), Long.MAX_VALUE, Long.MAX_VALUE)).length,
        utf8(RunReport.statusLine(new RunReport.Status(false, RunReport.NOTHING_INSTRUMENTED), Long.MAX_VALUE,
            Long.MAX_VALUE)).length));
    ReportStream stream = new ReportStream(file, out, races, summary, err, width);
    try {
      out.setLength(0);
      out.write(stream.padded(running)); // not forced: a kill keeps what was written, and start-up stays short
      out.write('\n');
    } catch (IOException e) {
      out.close();
      throw e;
    }
    return stream;
  }

  /** Makes this the stream {@link #flushNow} flushes, and starts flushing every {@code intervalMillis} (0: never). */
  public void startFlushing(int intervalMillis) {
    active = this;
    if (intervalMillis > 0) {
      ReportFlusher.start(this, intervalMillis);
    }
  }

  /**
   * For the launcher, before it is killed or kills: appends every race found so far that the file lacks and forces
   * the file to disk, on the calling thread. Safe to call from any thread, at any time, also during the exit hook.
   *
   * @return true if the report file now holds every race this JVM's agent has found (also when the JVM is exiting
   *     and the report is complete); false if there is no streaming report here (no agent, jumble mode) or it cannot
   *     be written (the agent said why on stderr, and rewrites the report whole at exit)
   */
  public static boolean flushNow() {
    ReportStream stream = active;
    if (stream == null) {
      return false;
    }
    ThreadShadow thread = ThreadShadow.current();
    boolean previous = thread.enterAgent(); // the writes below are the agent's, not the program's
    try {
      return stream.flush();
    } finally {
      thread.exitAgent(previous);
    }
  }

  /**
   * Appends the fields that first raced or grew a test, site pair or index since the last flush, and a progress
   * line; forces the file. Writes nothing when nothing changed. The caller's thread must be busy (see
   * {@link ThreadShadow#enterAgent}).
   *
   * @return false if the file could not be written (now or before)
   */
  boolean flush() {
    synchronized (lock) {
      if (closed) {
        return true;
      }
      if (failure != null) {
        return false;
      }
      try {
        List<FieldRaces> changed = races.unreported(false);
        long instrumented = summary.classesInstrumented();
        long errors = summary.internalErrors();
        if (changed.isEmpty() && instrumented == progressInstrumented && errors == progressErrors) {
          return true;
        }
        StringBuilder lines = raceLines(changed);
        lines.append(RaceReportWriter.progressLine(instrumented, races.fieldCount(), races.totalReports(), errors))
            .append('\n');
        append(lines);
        progressInstrumented = instrumented;
        progressErrors = errors;
        return true;
      } catch (IOException e) {
        fail(e);
        return false;
      }
    }
  }

  /** True once the stream will write no more: closed, or failed. */
  boolean finished() {
    synchronized (lock) {
      return closed || failure != null;
    }
  }

  /**
   * The exit: appends the lines of every field whose state moved since its last line (counts included), the
   * summary, writes the final status into the first line, forces and closes the file. Only the first call writes.
   *
   * @return false if the stream had failed or fails now: the caller then writes the report whole
   *     ({@link RunReport#write})
   */
  public boolean close(RunReport.Status status, long trustedJdkClasses, long untrackedArrays) {
    synchronized (lock) {
      if (closed) {
        return true;
      }
      closed = true;
      try (RandomAccessFile closing = out) {
        if (failure != null) {
          return false;
        }
        StringBuilder lines = raceLines(races.unreported(true));
        byte[] statusLine = utf8(RunReport.statusLine(status, trustedJdkClasses, untrackedArrays));
        boolean fits = statusLine.length <= statusWidth;
        if (!fits) { // a message longer than the slot: a reader takes the last status line
          lines.append(new String(statusLine, StandardCharsets.UTF_8)).append('\n');
        }
        lines.append(RaceReportWriter.summaryLine(summary, races.fieldCount(), races.totalReports())).append('\n');
        append(lines);
        if (fits) {
          out.seek(0);
          out.write(padded(statusLine));
          out.getFD().sync();
        }
        return true;
      } catch (IOException e) {
        fail(e);
        return false;
      }
    }
  }

  private static StringBuilder raceLines(List<FieldRaces> fields) {
    StringBuilder lines = new StringBuilder(fields.size() * 512 + 128);
    for (FieldRaces f : fields) {
      lines.append(RaceReportWriter.raceLine(f)).append('\n');
    }
    return lines;
  }

  /** Writes whole lines at the end of the file (one write) and forces them to disk. */
  private void append(CharSequence lines) throws IOException {
    out.write(utf8(lines.toString()));
    out.getFD().sync();
  }

  /** The status line padded with spaces to the slot's width (JSON allows trailing white space). */
  private byte[] padded(byte[] statusLine) {
    byte[] slot = Arrays.copyOf(statusLine, statusWidth);
    Arrays.fill(slot, statusLine.length, statusWidth, (byte) ' ');
    return slot;
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private void fail(IOException e) {
    failure = e;
    err.println("racetriage agent: ERROR: could not write the report " + file.toAbsolutePath() + " (" + e
        + "); no more races are written to it while the program runs, and the agent tries to write it whole at exit");
  }
}
