package dev.racetriage.store.trials;

import java.time.Instant;

/** A stored trial: its row id, the run that made it (null if none) and when it was recorded. */
public record TrialRecord(long id, Long runId, Instant recordedAt, Trial trial) {}
