package dev.racetriage.agent.options;

import java.util.List;

/**
 * The parsed agent argument ({@code -javaagent:racetriage-agent.jar=mode=detect;out=FILE;...}).
 *
 * @param mode       what the agent does in the JVM: {@code detect} (report races) or {@code jumble} (adversarial memory
 *                   on the fields of {@code jumble})
 * @param out        the JSON-lines report file (race lines and one summary line)
 * @param includes   class-name prefixes that are instrumented even if a default exclusion would skip them
 * @param excludes   class-name prefixes (binary names, dots) that are never instrumented
 * @param stackDepth frames kept per access in a race report
 * @param verbose    print every skipped class and the summary on stderr
 * @param dumpDir    when set, instrumented class files are written there (for {@code javap} when debugging)
 * @param jumble     the adversarial-memory settings in {@code jumble} mode; null in {@code detect} mode
 * @param cache      where instrumented classes are kept between runs: a directory, {@link #CACHE_OFF}, or null for
 *                   the default ({@code $XDG_CACHE_HOME/racetriage/agent-classes}, else
 *                   {@code ~/.cache/racetriage/agent-classes})
 * @param flushMillis how often, in detect mode, the races found since the last look are appended to {@code out} while
 *                   the program runs (so a JVM killed at a time limit still leaves what it saw); 0: only at exit
 * @param maxArrayElements detect mode: arrays longer than this are not checked element by element (each checked
 *                   element costs 12 bytes of shadow); they are counted and named in the report instead
 * @param predict    detect mode: also report the races WCP predicts (critical sections with no conflicting access
 *                   do not order), marked predicted, with the lock whose order to flip; on by default
 * @param predictEvents detect mode, with predict: the events the predictive analysis takes (per test under the
 *                   launcher) before it stops (detection goes on without it, the summary says so); 0: one analysis
 *                   for the whole run, no limit
 * @param containers detect mode: model the JDK's unsynchronised containers at their call sites (container races,
 *                   keys {@code pkg.Cls.map{}}); on by default
 */
public record AgentOptions(String mode, String out, List<String> includes, List<String> excludes,
                           int stackDepth, boolean verbose, String dumpDir, JumbleOptions jumble,
                           String cache, int flushMillis, int maxArrayElements, boolean predict,
                           long predictEvents, boolean containers) {

  public static final String MODE_DETECT = "detect";
  public static final String MODE_JUMBLE = "jumble";
  public static final String DEFAULT_OUT = "racetriage-races.jsonl";
  public static final int DEFAULT_STACK_DEPTH = 6;
  public static final String CACHE_OFF = "off";
  public static final int DEFAULT_FLUSH_MILLIS = 1000;
  /**
   * The shortest flush interval: each flush that finds something new forces the file to disk, and classes loading
   * make something new (the progress line) most of the time at start-up.
   */
  public static final int MIN_FLUSH_MILLIS = 100;
  public static final int MAX_FLUSH_MILLIS = 3_600_000;
  /** 2^22 elements: 48 MiB of element records at most for one array. */
  public static final int DEFAULT_MAX_ARRAY_ELEMENTS = 1 << 22;
  /**
   * The predictive analysis's default budget, in events, per test (the launcher starts a fresh analysis at each test)
   * or for a program run without tests: all of a small test's (the corpus's racy tests), the first part of a
   * CPU-heavy one's; below where the analysis's own JIT warm-up starts to show on the Grande kernels (RESULTS.md,
   * "Agent: predictive detection").
   */
  public static final long DEFAULT_PREDICT_EVENTS = 100_000;

  public AgentOptions {
    includes = List.copyOf(includes);
    excludes = List.copyOf(excludes);
  }

  public boolean jumbleMode() {
    return jumble != null;
  }

  public static AgentOptions defaults() {
    return new AgentOptions(MODE_DETECT, DEFAULT_OUT, List.of(), List.of(), DEFAULT_STACK_DEPTH, false, null, null,
        null, DEFAULT_FLUSH_MILLIS, DEFAULT_MAX_ARRAY_ELEMENTS, true, DEFAULT_PREDICT_EVENTS, true);
  }
}
