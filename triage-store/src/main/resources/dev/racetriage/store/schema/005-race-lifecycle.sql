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
