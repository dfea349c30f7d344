-- racetriage triage store, schema version 3 on PostgreSQL (see 003-run-owner.sql): the same columns and CHECK,
-- altered in place where SQLite has to rebuild the table.
ALTER TABLE run DROP CONSTRAINT run_status_check;
ALTER TABLE run ADD CONSTRAINT run_status_check
  CHECK (status IN ('RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'ABANDONED'));
ALTER TABLE run ADD COLUMN owner_pid INTEGER;
ALTER TABLE run ADD COLUMN owner_host TEXT;
ALTER TABLE run ADD COLUMN owner_started_at INTEGER;
ALTER TABLE run ADD COLUMN heartbeat_at INTEGER;
-- Every open looks for RUNNING runs whose owner is gone; keep that look cheap however many runs there are.
CREATE INDEX run_running ON run(status) WHERE status = 'RUNNING';
