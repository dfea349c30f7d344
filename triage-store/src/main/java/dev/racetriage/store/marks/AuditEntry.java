package dev.racetriage.store.marks;

import dev.racetriage.store.FieldKey;
import java.time.Instant;

/** One line of the audit log: who did what to which field, when, and why ({@code note} may be null). */
public record AuditEntry(long id, FieldKey field, AuditAction action, String author, String note, Instant at) {}
