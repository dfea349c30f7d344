package dev.racetriage.store.verdicts;

import dev.racetriage.store.FieldKey;
import java.time.Instant;

/** One entry of a race's verdict history; {@code runId} is the run that decided it, if any. */
public record VerdictRecord(
    long id, FieldKey field, Verdict verdict, Evidence evidence, Instant decidedAt, Long runId) {}
