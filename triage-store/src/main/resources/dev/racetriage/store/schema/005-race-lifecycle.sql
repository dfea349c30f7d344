-- racetriage triage store, schema version 5: a race's lifecycle. A race that a detection no longer sees while every
-- test that exercised it ran and passed is FIXED (by that run, at that commit): it leaves open counts, diagnostics and
-- exports but keeps its evidence. Seen again, it is REGRESSED (open, and shown as a regression) until fixed again.
-- ACTIVE is every other race. race_event keeps each change, oldest first, for the race's history.
ALTER TABLE race ADD COLUMN lifecycle TEXT NOT NULL DEFAULT 'ACTIVE'
  CHECK (lifecycle IN ('ACTIVE', 'FIXED', 'REGRESSED'));
ALTER TABLE race ADD COLUMN lifecycle_at INTEGER;
ALTER TABLE race ADD COLUMN lifecycle_run_id INTEGER REFERENCES run(id) ON DELETE SET NULL;
ALTER TABLE race ADD COLUMN lifecycle_commit TEXT;
CREATE INDEX race_lifecycle ON race(lifecycle);

CREATE TABLE race_event (
  id         INTEGER PRIMARY KEY,
  race_id    INTEGER NOT NULL REFERENCES race(id) ON DELETE CASCADE,
  run_id     INTEGER REFERENCES run(id) ON DELETE SET NULL,
  event      TEXT NOT NULL CHECK (event IN ('FIXED', 'REGRESSED')),
  commit_id  TEXT,
  note       TEXT NOT NULL,
  at         INTEGER NOT NULL
);
CREATE INDEX race_event_race ON race_event(race_id, id);

-- A trusted-benign mark on a race whose verdict is destructive overrides failing evidence: the audit log records it
-- as an action of its own. SQLite cannot widen a CHECK in place, so audit_log is rebuilt (the Migrator runs the step
-- with foreign keys off and checks them before committing).
CREATE TABLE audit_log_v5 (
  id        INTEGER PRIMARY KEY,
  field_id  INTEGER NOT NULL REFERENCES field(id) ON DELETE CASCADE,
  action    TEXT NOT NULL CHECK (action IN ('MARK_TRUSTED_BENIGN', 'MARK_OVERRIDING_DESTRUCTIVE', 'REOPEN', 'COMMENT',
                                            'IMPORT_MARK')),
  author    TEXT NOT NULL,
  note      TEXT,
  at        INTEGER NOT NULL
);
INSERT INTO audit_log_v5(id, field_id, action, author, note, at) SELECT id, field_id, action, author, note, at FROM audit_log;
DROP TABLE audit_log;
ALTER TABLE audit_log_v5 RENAME TO audit_log;
CREATE INDEX audit_field ON audit_log(field_id, id);
