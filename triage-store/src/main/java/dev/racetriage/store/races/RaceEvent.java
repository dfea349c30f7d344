package dev.racetriage.store.races;

import java.time.Instant;

/**
 * A change of a race's {@link Lifecycle}: the run that saw it (null if that run was deleted), the commit the project
 * was at when that run started (null outside git), what was seen, and when.
 */
public record RaceEvent(Lifecycle state, Long runId, String commitId, String note, Instant at) {}
