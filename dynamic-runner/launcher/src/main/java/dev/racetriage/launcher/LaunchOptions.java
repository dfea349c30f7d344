package dev.racetriage.launcher;

import dev.racetriage.launcher.select.TestSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The launcher's command line:
 * <pre>
 * --results FILE [--list | --serve]
 * [--scan DIR]... [--select-class C]... [--select-method C#m]... [--select-id ID]...
 * [--include PATTERN]... [--exclude PATTERN]... [--tests SPEC] [--groups TAGS] [--excluded-groups TAGS]
 * [--config KEY=VALUE]... [--test-timeout-ms N] [--test-limits FILE] [--skip-ids FILE] [--heap-peak]
 * </pre>
 * {@code --scan} runs the classes under DIR that Surefire would run: those matching {@code --include} (Surefire's
 * default includes when none) and no {@code --exclude} (default: inner classes), or, with {@code --tests}, those the
 * {@code -Dtest} syntax names (which overrides includes and excludes, as in Surefire). {@code --groups} and
 * {@code --excluded-groups} are JUnit tag expressions, comma-separated. {@code --config} passes a JUnit Platform
 * configuration parameter. {@code --test-timeout-ms} and {@code --test-limits} bound each test (see
 * {@link TestWatchdog}); {@code --skip-ids} names tests and containers not to run ({@link SkipIds}).
 * {@code --serve} runs the selection once per command read from stdin ({@link TrialServer}). {@code --heap-peak}
 * has the summary (and a {@code hung} line) name the JVM's peak committed heap ({@link HeapPeak}).
 */
record LaunchOptions(Path results, boolean listOnly, boolean serve, List<Path> scanRoots, List<String> classes,
    List<String> methods, List<String> uniqueIds, Filters filters, Map<String, String> config,
    long testTimeoutMillis, Path testLimits, Path skipIds, boolean heapPeak) {

  /** Which of the discovered tests run: Surefire's class patterns and JUnit tag expressions. */
  record Filters(List<String> includes, List<String> excludes, String tests, List<String> groups,
      List<String> excludedGroups) {
    /** The class filter: {@code --tests} when given, else the includes and excludes (Surefire's defaults if none). */
    TestSpec classSpec() {
      if (tests != null) return TestSpec.parse(tests);
      return TestSpec.includesExcludes(includes.isEmpty() ? DEFAULT_INCLUDES : includes,
          excludes.isEmpty() ? DEFAULT_EXCLUDES : excludes);
    }

    /** The {@code --tests} filter when it names methods: then tests are chosen one by one. */
    TestSpec methodSpec() {
      return tests != null && TestSpec.parse(tests).hasMethodPatterns() ? TestSpec.parse(tests) : null;
    }
  }

  /** Surefire's default {@code <includes>}. */
  static final List<String> DEFAULT_INCLUDES = List.of("**/Test*.java", "**/*Test.java", "**/*Tests.java", "**/*TestCase.java");
  /** Surefire's default {@code <excludes>}: inner classes (JUnit 5 runs {@code @Nested} ones through their outer class). */
  static final List<String> DEFAULT_EXCLUDES = List.of("**/*$*");

  static LaunchOptions parse(String[] args) {
    Path results = null;
    boolean listOnly = false;
    boolean serve = false;
    List<Path> scanRoots = new ArrayList<>();
    List<String> classes = new ArrayList<>();
    List<String> methods = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    List<String> includes = new ArrayList<>();
    List<String> excludes = new ArrayList<>();
    String tests = null;
    List<String> groups = new ArrayList<>();
    List<String> excludedGroups = new ArrayList<>();
    Map<String, String> config = new LinkedHashMap<>();
    long timeout = 0;
    Path limits = null;
    Path skip = null;
    boolean heapPeak = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--list" -> listOnly = true;
        case "--serve" -> serve = true;
        case "--results" -> results = Path.of(value(args, ++i, arg));
        case "--scan" -> scanRoots.add(Path.of(value(args, ++i, arg)));
        case "--select-class" -> classes.add(value(args, ++i, arg));
        case "--select-method" -> methods.add(value(args, ++i, arg));
        case "--select-id" -> ids.add(value(args, ++i, arg));
        case "--include" -> includes.add(value(args, ++i, arg));
        case "--exclude" -> excludes.add(value(args, ++i, arg));
        case "--tests" -> tests = value(args, ++i, arg);
        case "--groups" -> groups.addAll(tags(value(args, ++i, arg)));
        case "--excluded-groups" -> excludedGroups.addAll(tags(value(args, ++i, arg)));
        case "--config" -> {
          String pair = value(args, ++i, arg);
          int eq = pair.indexOf('=');
          if (eq <= 0) throw new IllegalArgumentException("--config needs KEY=VALUE, not '" + pair + "'");
          config.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
        }
        case "--test-timeout-ms" -> timeout = millis(value(args, ++i, arg), arg);
        case "--test-limits" -> limits = Path.of(value(args, ++i, arg));
        case "--skip-ids" -> skip = Path.of(value(args, ++i, arg));
        case "--heap-peak" -> heapPeak = true;
        default -> throw new IllegalArgumentException("unknown launcher option '" + arg + "'");
      }
    }
    if (results == null) {
      throw new IllegalArgumentException("--results FILE is required");
    }
    if (scanRoots.isEmpty() && classes.isEmpty() && methods.isEmpty() && ids.isEmpty()) {
      throw new IllegalArgumentException("nothing to run: give --scan DIR or a --select-* option");
    }
    if (listOnly && serve) {
      throw new IllegalArgumentException("--list and --serve exclude each other");
    }
    Filters filters = new Filters(includes, excludes, tests, groups, excludedGroups);
    filters.classSpec(); // a malformed pattern is an argument error, reported before anything runs
    return new LaunchOptions(results, listOnly, serve, scanRoots, classes, methods, ids, filters, config, timeout,
        limits, skip, heapPeak);
  }

  /** Surefire's groups: comma-separated, each a tag expression. */
  private static List<String> tags(String list) {
    List<String> tags = new ArrayList<>();
    for (String t : list.split(",")) {
      if (!t.isBlank()) tags.add(t.strip());
    }
    return tags;
  }

  private static long millis(String text, String option) {
    try {
      long value = Long.parseLong(text.strip());
      if (value < 0) throw new NumberFormatException();
      return value;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " needs a number of milliseconds (0: no limit), not '" + text + "'");
    }
  }

  private static String value(String[] args, int index, String option) {
    if (index >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[index];
  }
}
