package dev.racetriage.lsp.findings;

import java.util.List;
import java.util.Optional;

/**
 * Why the store classified a field as it did, as the hover shows it.
 *
 * @param rows one per heuristic, {@code sc} (the control) included
 * @param firstFailure the first failing trial's test and stack trace head
 * @param replayCommand a command line that replays the failing trial
 * @param markNote the trusted-benign mark's author and note, when there is one
 * @param testCode every access of the race is in a file under {@code src/test}: a test-code race
 */
public record VerdictEvidence(
    List<HeuristicRow> rows, Optional<String> firstFailure, Optional<String> replayCommand, Optional<String> markNote,
    boolean testCode) {

  public VerdictEvidence {
    rows = List.copyOf(rows);
  }

  public static VerdictEvidence none() {
    return new VerdictEvidence(List.of(), Optional.empty(), Optional.empty(), Optional.empty(), false);
  }
}
