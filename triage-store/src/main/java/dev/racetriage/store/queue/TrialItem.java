package dev.racetriage.store.queue;

import java.time.Instant;

/**
 * One planned unit of trials (a race's trials with one test, under every heuristic): {@code spec} is the runner's
 * description of what to run (opaque to the store), {@code fingerprint} the build it was planned for, {@code outcomes}
 * what the worker that finished it reported (opaque too), {@code decided} whether its runs decided the race so the
 * race's other units stopped.
 */
public record TrialItem(long id, long runId, String fingerprint, String fieldKey, String testName, String spec,
                        TrialItemState state, boolean decided, String claimedBy, Instant claimedAt,
                        Instant leaseUntil, int attempts, Instant enqueuedAt, Instant finishedAt, String outcomes,
                        String error) {}
