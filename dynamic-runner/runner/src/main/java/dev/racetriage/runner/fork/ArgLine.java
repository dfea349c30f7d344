package dev.racetriage.runner.fork;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a Surefire {@code argLine} into JVM arguments as Surefire does (Plexus' {@code translateCommandline}): at
 * whitespace, except inside single or double quotes, which are removed. No backslash escapes.
 */
final class ArgLine {
  private ArgLine() {}

  /**
   * The argLine's JVM arguments without a coverage agent (JaCoCo's {@code -javaagent:…jacoco…}, usually put there by
   * jacoco-maven-plugin's prepare-agent). Coverage is not what racetriage measures, and the probes it adds to every
   * class — an array every thread writes without synchronisation, by design — would be reported as races (on
   * dropwizard metrics they were every race found). Other agents (Mockito's, a project's own) are kept.
   */
  static List<String> withoutCoverageAgents(List<String> tokens) {
    return tokens.stream().filter(t -> !(t.startsWith("-javaagent:") && t.toLowerCase(java.util.Locale.ROOT)
        .contains("jacoco"))).toList();
  }

  /** The collector the detection JVM runs with when the project chooses none (see {@link #detectionCollector}). */
  static final String DETECTION_COLLECTOR = "-XX:+UseParallelGC";

  /**
   * The garbage collector option to add to a detection JVM: {@link #DETECTION_COLLECTOR} unless the argLine or the
   * environment ({@code JAVA_TOOL_OPTIONS}, {@code JDK_JAVA_OPTIONS}, {@code _JAVA_OPTIONS}) already chooses a
   * collector (two would stop the JVM), else none. The agent's shadows of objects without a slot — arrays above all
   * — are values of a weakly keyed table; under G1 (the default) a young collection does not clear weak references
   * that survivor overflow promoted, so the shadows of millions of short-lived arrays, and the arrays, stay until a
   * concurrent cycle: jackson-core's suite grew to 6.5 GB resident under G1 against 3.1 GB with the parallel
   * collector (1.8 GB natively), and took a quarter more CPU (benchmarks/RESULTS.md). The collector changes neither
   * the program's semantics nor what happens-before orders; only trial and baseline JVMs keep the project's default.
   */
  static java.util.Optional<String> detectionCollector(List<String> argLine, java.util.Map<String, String> environment) {
    return projectSets(argLine, environment, t -> t.matches("-XX:\\+Use\\w*GC")) ? java.util.Optional.empty()
        : java.util.Optional.of(DETECTION_COLLECTOR);
  }

  /**
   * Whether the argLine or the JVM's option variables in the environment ({@code JAVA_TOOL_OPTIONS},
   * {@code JDK_JAVA_OPTIONS}, {@code _JAVA_OPTIONS}; the test JVM's own, else this process's) hold an option
   * {@code option} accepts: then a detection JVM leaves that setting to the project.
   */
  private static boolean projectSets(List<String> argLine, java.util.Map<String, String> environment,
                                     java.util.function.Predicate<String> option) {
    java.util.stream.Stream<String> env = java.util.stream.Stream.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS",
        "_JAVA_OPTIONS").map(k -> environment.getOrDefault(k, System.getenv(k))).filter(v -> v != null);
    return java.util.stream.Stream.concat(argLine.stream(), env.flatMap(v -> tokens(v).stream())).anyMatch(option);
  }

  /** The parallel collector's time goal in a detection JVM: 1/(1 + 19), 5 % of the time in collections. */
  static final String DETECTION_GC_TIME_RATIO = "-XX:GCTimeRatio=19";

  /**
   * With the collector racetriage chose ({@link #detectionCollector}), its time goal, unless the argLine or the
   * environment sets one: the parallel collector's default goal (99: 1 % of the time in collections) grows the heap
   * to cut collections, and the agent's shadows allocate fast, so the heap grew to four times its largest live set
   * (jsoup's suite: 1.4 GB committed, 326 MB live after any collection; peak RSS 1.94 GB against 807 MB natively under
   * G1, whose goal is about 8 %). At 5 % the same run peaked at 1.45–1.68 GB in the same time (benchmarks/RESULTS.md).
   * Empty when the project chose the collector.
   */
  static java.util.Optional<String> detectionGcTimeRatio(List<String> argLine,
                                                         java.util.Map<String, String> environment) {
    return detectionCollector(argLine, environment).isEmpty()
        || projectSets(argLine, environment, t -> t.startsWith("-XX:GCTimeRatio="))
        ? java.util.Optional.empty() : java.util.Optional.of(DETECTION_GC_TIME_RATIO);
  }

  /** How long, per free MB of heap, a detection JVM keeps a soft reference nobody used (the JVM's default: 1000 ms). */
  static final String DETECTION_SOFT_REFERENCES = "-XX:SoftRefLRUPolicyMSPerMB=100";

  /**
   * The soft-reference policy option to add to a detection JVM: {@link #DETECTION_SOFT_REFERENCES} unless the argLine
   * or the environment sets one, else none. A softly reachable cache that a test fills is kept for a second per free
   * megabyte since its last use; under the agent every cached object also has a shadow, so the same cache fills the
   * heap to the point where the parallel collector runs back-to-back full collections instead of clearing it:
   * commons-lang's date tests, behind its locale-resource caches, spent 72 s of a 267 s run in 67 full collections
   * (benchmarks/RESULTS.md). A tenth of the default lets the collector clear an unused cache sooner. Soft references
   * may be cleared at any collection, so this changes neither the program's semantics nor what happens-before orders.
   */
  static java.util.Optional<String> detectionSoftReferences(List<String> argLine,
                                                            java.util.Map<String, String> environment) {
    return projectSets(argLine, environment, t -> t.startsWith("-XX:SoftRefLRUPolicyMSPerMB="))
        ? java.util.Optional.empty() : java.util.Optional.of(DETECTION_SOFT_REFERENCES);
  }

  /** What a detection JVM's heap limit adds to the project's: twice it, plus this (the memory bound of issue 18). */
  static final long DETECTION_HEAP_ALLOWANCE = 256L << 20;

  /**
   * The heap limit to put after the argLine of a detection JVM when the argLine limits the heap ({@code -Xmx},
   * {@code -XX:MaxHeapSize=}; the last one counts, as in the JVM): twice that limit plus
   * {@link #DETECTION_HEAP_ALLOWANCE}, else none (the JVM's default, a quarter of the machine's memory, is left as
   * it is). The agent's shadows live on the same heap as the program's objects, so a limit sized for the tests alone
   * runs the detection JVM out of memory: commons-lang's {@code -Xmx512m} ended its detection JVM with "GC overhead
   * limit exceeded" and stretched a 4 s test past its 60 s limit in collections (benchmarks/RESULTS.md). Baseline and
   * trial JVMs keep the project's limit: a trial's runs are compared with its own control runs, under the same heap.
   */
  static java.util.Optional<String> detectionHeap(List<String> argLine) {
    long limit = -1;
    for (String t : argLine) {
      if (t.startsWith("-Xmx")) {
        limit = bytes(t.substring(4));
      } else if (t.startsWith("-XX:MaxHeapSize=")) {
        limit = bytes(t.substring("-XX:MaxHeapSize=".length()));
      }
    }
    if (limit <= 0) {
      return java.util.Optional.empty(); // none, or one the JVM itself will refuse with its own message
    }
    return java.util.Optional.of(xmx(2 * limit + DETECTION_HEAP_ALLOWANCE));
  }

  /**
   * The heap limit, in bytes, of a detection JVM whose baseline JVM committed at most {@code baselinePeak} bytes of
   * heap: twice that plus {@link #DETECTION_HEAP_ALLOWANCE} — the memory bound of issue 18 (detection peak RSS at most
   * twice the baseline's plus a fixed allowance), met by the heap, where the agent's shadows live. Without a limit a
   * detection JVM's collector grows the heap to the JVM's default maximum to keep its time goal against the
   * allocation rate of the program and its shadows: zxing's core tests committed 0.75 GB without the agent and 2.8 GB
   * under it, while no more than 239 MB was live after a full collection (benchmarks/RESULTS.md). Never above the
   * argLine's own rule ({@link #detectionHeap}), so a project's {@code -Xmx} still bounds it; without one, never
   * above {@code baselineMax}, the baseline JVM's maximum heap (the JVM's default, a quarter of the machine's
   * memory): commons-text's baseline committed all of its 6 GB default, and twice that would have let the detection
   * JVM grow past what it takes without a limit. Empty when that cap is the argLine-less default itself: the
   * detection JVM then runs with the JVM's default heap, as without a baseline.
   */
  static java.util.OptionalLong detectionHeapFromBaseline(List<String> argLine, long baselinePeak, long baselineMax) {
    long derived = 2 * baselinePeak + DETECTION_HEAP_ALLOWANCE;
    java.util.Optional<String> fromArgLine = detectionHeap(argLine);
    if (fromArgLine.isPresent()) {
      return java.util.OptionalLong.of(Math.min(derived, bytes(fromArgLine.get().substring(4))));
    }
    if (baselineMax > 0 && derived >= baselineMax) {
      return java.util.OptionalLong.empty();
    }
    return java.util.OptionalLong.of(derived);
  }

  /** {@code -Xmx} for {@code bytes}, rounded up to whole megabytes. */
  static String xmx(long bytes) {
    return "-Xmx" + ((bytes + (1L << 20) - 1) >> 20) + "m";
  }

  /** A JVM size ({@code 512m}, {@code 2G}, {@code 1048576}), or -1 if it is not one. */
  static long bytes(String size) {
    if (size.isEmpty()) {
      return -1;
    }
    char unit = Character.toLowerCase(size.charAt(size.length() - 1));
    int shift = switch (unit) {
      case 'k' -> 10;
      case 'm' -> 20;
      case 'g' -> 30;
      case 't' -> 40;
      default -> 0;
    };
    String digits = shift == 0 ? size : size.substring(0, size.length() - 1);
    if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit) || digits.length() > 12) {
      return -1;
    }
    return Long.parseLong(digits) << shift;
  }

  /** @throws IllegalArgumentException for an unbalanced quote, naming the argLine */
  static List<String> tokens(String argLine) {
    List<String> tokens = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean inToken = false;
    char quote = 0;
    for (char c : argLine.toCharArray()) {
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          current.append(c);
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
        inToken = true;
      } else if (Character.isWhitespace(c)) {
        if (inToken) {
          tokens.add(current.toString());
          current.setLength(0);
          inToken = false;
        }
      } else {
        current.append(c);
        inToken = true;
      }
    }
    if (quote != 0) {
      throw new IllegalArgumentException("the Surefire argLine has an unbalanced " + quote + " quote: " + argLine
          + " — fix <argLine> in the pom (or the property it comes from)");
    }
    if (inToken) tokens.add(current.toString());
    return tokens;
  }
}
