package dev.racetriage.store.trials;

import java.time.Instant;

/**
 * A stored trial: its row id, the run that made it (null if none), when it was recorded, and the key of the inputs
 * it was run from (null if the runner gave none; see {@link TrialRepository#add(Trial, Long, String)}).
 */
public record TrialRecord(long id, Long runId, Instant recordedAt, Trial trial, String inputsKey) {}
