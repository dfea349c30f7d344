package dev.racetriage.dashboard.api;

import dev.racetriage.store.runs.Run;
import java.time.Instant;
import java.util.Locale;

/** A scan, triage or daemon cycle as the overview lists it. */
public record RunRow(
    long id, String kind, String status, Instant startedAt, Instant finishedAt, String commitId, String message) {
  public static RunRow of(Run run) {
    return new RunRow(
        run.id(), run.kind(), run.status().name().toLowerCase(Locale.ROOT), run.startedAt(), run.finishedAt(),
        run.commitId(), run.message());
  }
}
