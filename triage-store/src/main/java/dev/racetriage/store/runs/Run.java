package dev.racetriage.store.runs;

import java.time.Instant;

/**
 * One scan, triage or daemon cycle. {@code kind} is free text chosen by the caller ("triage", "daemon", "scan");
 * {@code commitId} is the VCS revision if known and {@code fingerprint} a hash of what was analysed (sources,
 * classpath), so a run can be recognised as current. {@code finishedAt} is null while running. {@code owner} is the
 * process doing the run and {@code heartbeatAt} when it last said it was alive (both null for runs recorded before
 * schema version 3).
 */
public record Run(
    long id,
    String kind,
    Instant startedAt,
    Instant finishedAt,
    String commitId,
    String fingerprint,
    RunStatus status,
    String message,
    RunOwner owner,
    Instant heartbeatAt) {

  /** The last time the run is known to have been alive: its heartbeat, or its start if it has none. */
  public Instant lastSignOfLife() {
    return heartbeatAt != null ? heartbeatAt : startedAt;
  }
}
