package dev.racetriage.store.queue;

import dev.racetriage.store.FieldKey;
import java.time.Instant;

/**
 * A request to (re-)triage one field: why ("changed: Cache.java", "mark reopened"), its priority (higher first),
 * and its claim: who holds it until when, and how many times it was claimed ({@code attempts} above 1 means an
 * earlier claimer died or gave up).
 */
public record WorkItem(
    long id,
    FieldKey field,
    String reason,
    int priority,
    WorkState state,
    Instant enqueuedAt,
    String claimedBy,
    Instant leaseUntil,
    int attempts,
    Instant finishedAt,
    String error) {}
