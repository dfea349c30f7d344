package dev.racetriage.store.marks;

/** The triage actions the audit log records. */
public enum AuditAction {
  MARK_TRUSTED_BENIGN,
  /** A trusted-benign mark on a race whose verdict was destructive: the team overrode failing evidence. */
  MARK_OVERRIDING_DESTRUCTIVE,
  REOPEN,
  COMMENT,
  /** A mark found in the committed mirror file and copied into this database. */
  IMPORT_MARK
}
