package dev.racetriage.runner.triage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Says, while a test JVM runs, what it is doing and what is slow: it follows the launcher's results files in a
 * directory and its {@link #FRESH_JVMS} subdirectory ({@code results*.jsonl}: a JVM that is restarted after a hung
 * test writes a new one; a test run in both counts once) and reports, as the
 * phase's step, "detect: 535/575 module tests, 10.8x baseline so far, slowest HistogramDataAccessTest#x (0.8 s -> 29 s)"
 * (the label names the module). The ratio compares the
 * finished tests' times with their own baseline times, so it means the same for a fast and a slow suite.
 */
final class TestProgressWatcher implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final Duration INTERVAL = Duration.ofSeconds(2);
  /**
   * The subdirectory of the detect phase's directory where its JVMs that go on past a hung test write (a single run
   * with {@code --detect-runs 1}, and the fallback of repeats that did not get through; see TriagePipeline).
   */
  static final String FRESH_JVMS = "single";

  private final Path dir;
  private final int total;
  private final Map<String, Long> baselineMillis;
  private final TriageProgress progress;
  private final String label;
  private final Map<Path, Long> offsets = new HashMap<>();
  private final Map<String, Long> finished = new HashMap<>();
  private final ScheduledExecutorService timer;
  private final java.util.function.LongSupplier clock;
  private String running;
  private long runningSince;
  private int lastReported = -1;
  private long lastReportNanos;
  /** With nothing finished, a long-running test is named again at most this often (CI logs get a line each time). */
  private static final long QUIET_NANOS = Duration.ofSeconds(30).toNanos();

  /**
   * @param baselineMillis each test's baseline time by {@code Class#method} name (empty in the baseline itself)
   */
  TestProgressWatcher(Path dir, int total, Map<String, Long> baselineMillis, TriageProgress progress, String label) {
    this(dir, total, baselineMillis, progress, label, System::nanoTime, true);
  }

  /** @param clock the time in nanoseconds (tests move it); {@code poll}: whether to poll by itself every INTERVAL */
  TestProgressWatcher(Path dir, int total, Map<String, Long> baselineMillis, TriageProgress progress, String label,
                      java.util.function.LongSupplier clock, boolean poll) {
    this.clock = clock;
    this.dir = dir;
    this.total = total;
    this.baselineMillis = Map.copyOf(baselineMillis);
    this.progress = progress;
    this.label = label;
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "racetriage-test-progress");
      t.setDaemon(true);
      return t;
    });
    if (poll) {
      timer.scheduleWithFixedDelay(this::poll, INTERVAL.toMillis(), INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  synchronized void poll() {
    try {
      readAll(dir);
      readAll(dir.resolve(FRESH_JVMS)); // one run, or the repeats' fallback: a fresh JVM per hung test
      String line = describe();
      if (line != null) progress.step(finished.size(), Math.max(total, finished.size()), line);
    } catch (IOException | RuntimeException e) {
      // progress is a courtesy: a file being rotated or cut short is read again at the next tick
    }
  }

  private void readAll(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) return;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "results*.jsonl")) {
      for (Path file : files) read(file);
    }
  }

  private void read(Path file) throws IOException {
    long offset = offsets.getOrDefault(file, 0L);
    try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
      if (in.length() <= offset) return;
      in.seek(offset);
      byte[] bytes = new byte[(int) Math.min(in.length() - offset, 8 << 20)];
      in.readFully(bytes);
      String text = new String(bytes, StandardCharsets.UTF_8);
      int end = text.lastIndexOf('\n');
      if (end < 0) return; // no whole line yet
      offsets.put(file, offset + text.substring(0, end + 1).getBytes(StandardCharsets.UTF_8).length);
      for (String line : text.substring(0, end).split("\n")) {
        if (line.isBlank()) continue;
        JsonNode event = JSON.readTree(line);
        String name = event.path("class").asText("") + "#" + event.path("method").asText(event.path("name").asText());
        switch (event.path("event").asText()) {
          case "started" -> {
            running = name;
            runningSince = clock.getAsLong();
          }
          case "finished", "hung" -> {
            if ("test".equals(event.path("kind").asText("test"))) finished.put(name, event.path("millis").asLong());
            if (name.equals(running)) running = null;
          }
          default -> { }
        }
      }
    }
  }

  /** The progress line, or null when nothing changed since the last one. */
  String describe() {
    StringBuilder s = new StringBuilder(label).append(" tests");
    long base = 0;
    long now = 0;
    String slowest = null;
    double worst = 0;
    for (Map.Entry<String, Long> e : finished.entrySet()) {
      Long b = baselineMillis.get(e.getKey());
      if (b == null) continue;
      base += b;
      now += e.getValue();
      double ratio = (e.getValue() + 1.0) / (b + 1.0);
      if (e.getValue() > 1000 && ratio > worst) {
        worst = ratio;
        slowest = e.getKey();
      }
    }
    if (base > 0) s.append(String.format(Locale.ROOT, ", %.1fx baseline so far", (double) now / base));
    if (slowest != null) {
      s.append(String.format(Locale.ROOT, ", slowest %s (%.1f s -> %.1f s)", slowest,
          baselineMillis.get(slowest) / 1000.0, finished.get(slowest) / 1000.0));
    }
    long nowNanos = clock.getAsLong();
    long seconds = running == null ? 0 : (nowNanos - runningSince) / 1_000_000_000L;
    if (seconds >= 10) s.append(", running ").append(running).append(" for ").append(seconds).append(" s");
    boolean changed = finished.size() != lastReported;
    if (!changed && (seconds < 10 || nowNanos - lastReportNanos < QUIET_NANOS)) return null;
    lastReported = finished.size();
    lastReportNanos = nowNanos;
    return s.toString();
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
