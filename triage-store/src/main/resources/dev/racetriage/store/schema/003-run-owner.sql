-- racetriage triage store, schema version 3: who owns a RUNNING run, so that a run whose process died is marked
-- ABANDONED instead of staying RUNNING forever. The owner is the process (pid, host, and its start time, which tells
-- a reused pid from the original) and a heartbeat it refreshes while it works.
--
-- SQLite cannot widen a CHECK constraint in place, so run is rebuilt (the documented 12-step procedure; the Migrator
-- runs this step with foreign keys off and checks them before committing, so the rows of race, trial and verdict
-- keep pointing at the same run ids).
CREATE TABLE run_v3 (
  id                INTEGER PRIMARY KEY,
  kind              TEXT NOT NULL,
  started_at        INTEGER NOT NULL,
  finished_at       INTEGER,
  commit_id         TEXT,
  fingerprint       TEXT,
  status            TEXT NOT NULL CHECK (status IN ('RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'ABANDONED')),
  message           TEXT,
  owner_pid         INTEGER,
  owner_host        TEXT,
  owner_started_at  INTEGER,
  heartbeat_at      INTEGER
);
INSERT INTO run_v3(id, kind, started_at, finished_at, commit_id, fingerprint, status, message)
  SELECT id, kind, started_at, finished_at, commit_id, fingerprint, status, message FROM run;
DROP TABLE run;
ALTER TABLE run_v3 RENAME TO run;
CREATE INDEX run_started ON run(started_at);
-- Every open looks for RUNNING runs whose owner is gone; keep that look cheap however many runs there are.
CREATE INDEX run_running ON run(status) WHERE status = 'RUNNING';
