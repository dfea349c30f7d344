package dev.racetriage.runner.fork;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How long each test may run before the launcher's watchdog reports it hung and stops its JVM: a default for every
 * test, and limits for single tests by JUnit unique id ({@link TestOutcome#id()}). A test template's invocations have
 * ids of their own; one without a limit here gets the default. {@link Duration#ZERO} means no limit.
 */
public record TestLimits(Duration defaultLimit, Map<String, Duration> byUniqueId) {
  public static final TestLimits NONE = new TestLimits(Duration.ZERO, Map.of());

  public TestLimits {
    byUniqueId = Map.copyOf(byUniqueId);
  }

  /** The same limit for every test. */
  public static TestLimits uniform(Duration limit) {
    return new TestLimits(limit, Map.of());
  }

  /**
   * Limits relative to what each test took in {@code measured} (a baseline): {@code factor} × its time, at least
   * {@code floor} (JIT, class loading and the agent's instrumentation make short tests relatively slower). Tests the
   * baseline did not time (failed before finishing, skipped) get {@code defaultLimit}.
   */
  public static TestLimits scaled(TestRunResult measured, double factor, Duration floor, Duration defaultLimit) {
    Map<String, Duration> limits = new LinkedHashMap<>();
    for (TestOutcome o : measured.outcomes()) {
      if (o.status() == TestOutcome.Status.PASSED || o.status() == TestOutcome.Status.FAILED
          || o.status() == TestOutcome.Status.ABORTED) {
        Duration scaled = Duration.ofMillis((long) Math.ceil(o.millis() * factor));
        limits.put(o.id(), scaled.compareTo(floor) < 0 ? floor : scaled);
      }
    }
    return new TestLimits(defaultLimit, limits);
  }

  public Duration limitFor(String uniqueId) {
    return byUniqueId.getOrDefault(uniqueId, defaultLimit);
  }

  /** The launcher options; a per-test file ({@code uniqueId<TAB>millis} lines) is written to {@code file} if needed. */
  List<String> launcherArguments(Path file) throws IOException {
    List<String> args = new ArrayList<>();
    if (!defaultLimit.isZero()) {
      args.add("--test-timeout-ms");
      args.add(Long.toString(defaultLimit.toMillis()));
    }
    if (!byUniqueId.isEmpty()) {
      StringBuilder lines = new StringBuilder();
      byUniqueId.forEach((id, limit) -> lines.append(id).append('\t').append(limit.toMillis()).append('\n'));
      Files.writeString(file, lines);
      args.add("--test-limits");
      args.add(file.toString());
    }
    return args;
  }
}
