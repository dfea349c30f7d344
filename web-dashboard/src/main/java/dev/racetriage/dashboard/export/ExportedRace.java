package dev.racetriage.dashboard.export;

import dev.racetriage.dashboard.api.RaceRow;
import java.util.List;

/**
 * One race in an export: its list row, the latest verdict's one-line summary, replay command and first failure,
 * the accesses (with the project-relative path of their file when it was found) and the tests that touched it.
 */
public record ExportedRace(
    RaceRow race,
    String summary,
    String replayCommand,
    String firstFailure,
    List<Access> accesses,
    List<String> tests) {

  /** {@code projectPath} is the file's path in the project if found, else null ({@code file} is as reported). */
  public record Access(String type, String thread, String file, String projectPath, int line, List<String> stack) {}
}
