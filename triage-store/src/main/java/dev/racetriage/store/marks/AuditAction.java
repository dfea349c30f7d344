package dev.racetriage.store.marks;

/** The triage actions the audit log records. */
public enum AuditAction {
  MARK_TRUSTED_BENIGN,
  REOPEN,
  COMMENT,
  /** A mark found in the committed mirror file and copied into this database. */
  IMPORT_MARK
}
