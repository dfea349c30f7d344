package dev.racetriage.dashboard.export;

import dev.racetriage.dashboard.api.RaceRow;
import dev.racetriage.store.trials.HeuristicRates;
import java.time.Instant;
import java.util.List;

/**
 * One race in an export or a report: its list row, the latest verdict's one-line summary, how to replay its decisive
 * trial ({@code replayCommand}: {@code racetriage replay …}, shell-quoted; {@code javaCommand}: the raw test JVM line
 * of the evidence, for tools; either may be null), the first failure, the accesses (with the project-relative path of
 * their file when it was found), the tests that touched it, the trials per heuristic, the fix the prefilter's patterns
 * suggest, when it was fixed (null unless it is), whether every access is in test code, and, when the latest
 * detection did not re-check it, a sentence saying so ({@code recheck}, else null).
 */
public record ExportedRace(
    RaceRow race,
    String summary,
    String replayCommand,
    String javaCommand,
    String firstFailure,
    List<Access> accesses,
    List<String> tests,
    List<HeuristicRates> heuristics,
    List<String> fixAdvice,
    Fixed fixed,
    boolean testCode,
    String recheck) {

  /** {@code projectPath} is the file's path in the project if found, else null ({@code file} is as reported). */
  public record Access(String type, String thread, String file, String projectPath, int line, List<String> stack) {
    /** {@code path:line} as editors and terminals link it (the reported file name when the path is unknown). */
    public String location() {
      String where = projectPath != null ? projectPath : file == null ? "?" : file;
      return line > 0 ? where + ":" + line : where;
    }
  }

  /** The run that no longer saw the race although its tests ran and passed, and the commit it ran on. */
  public record Fixed(Long runId, String commit, Instant at, String note) {}

  /**
   * The first failure cut to {@code lines} lines: the exception's message, then the frames of the project's code —
   * the test framework's and the JDK's own frames ({@code AssertionFailureBuilder.build}…) say nothing a user acts
   * on. Null when nothing failed.
   */
  public String failureHead(int lines) {
    if (firstFailure == null || firstFailure.isBlank()) return null;
    List<String> head = new java.util.ArrayList<>();
    for (String line : firstFailure.strip().lines().toList()) {
      if (head.size() >= lines) break;
      String frame = line.strip();
      if (frame.startsWith("at ") && FRAMEWORK.matcher(frame.substring(3)).lookingAt()) continue;
      head.add(line);
    }
    return String.join("\n", head);
  }

  private static final java.util.regex.Pattern FRAMEWORK = java.util.regex.Pattern.compile(
      "(java\\.base/|java\\.|jdk\\.|sun\\.|org\\.junit\\.|org\\.opentest4j\\.|dev\\.racetriage\\.agent\\.|"
          + "dev\\.racetriage\\.launcher\\.)");
}
