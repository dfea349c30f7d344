-- racetriage triage store, schema version 6: trials planned into a shared queue and run by workers.
-- `racetriage triage --distribute` plans each (race, test) unit of trials as a trial_item; `racetriage worker`
-- processes (and the triage itself) claim items with a lease, run them and store every trial as it finishes, with
-- the worker that ran it. An item is only taken by a worker whose build has the same fingerprint (class files and
-- agent): a checkout at another commit never runs another commit's plan. A worker killed mid-item leaves its claim
-- to expire; the next claimer reuses the trials already stored under the same inputs keys, so none is lost or counted
-- twice.
CREATE TABLE worker (
  id            TEXT PRIMARY KEY,
  host          TEXT NOT NULL,
  pid           INTEGER NOT NULL,
  project       TEXT NOT NULL,
  commit_id     TEXT,
  fingerprint   TEXT,
  state         TEXT NOT NULL,
  started_at    INTEGER NOT NULL,
  heartbeat_at  INTEGER NOT NULL,
  items_done    INTEGER NOT NULL DEFAULT 0,
  trials_done   INTEGER NOT NULL DEFAULT 0,
  message       TEXT
);

CREATE TABLE trial_item (
  id           INTEGER PRIMARY KEY,
  run_id       INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  fingerprint  TEXT NOT NULL,
  field_key    TEXT NOT NULL,
  test_name    TEXT NOT NULL,
  spec         TEXT NOT NULL,
  state        TEXT NOT NULL CHECK (state IN ('PENDING', 'CLAIMED', 'DONE', 'FAILED', 'SKIPPED')),
  decided      INTEGER NOT NULL DEFAULT 0,
  claimed_by   TEXT,
  claimed_at   INTEGER,
  lease_until  INTEGER,
  attempts     INTEGER NOT NULL DEFAULT 0,
  enqueued_at  INTEGER NOT NULL,
  finished_at  INTEGER,
  outcomes     TEXT,
  error        TEXT
);
CREATE INDEX trial_item_claimable ON trial_item(fingerprint, state, id);
CREATE INDEX trial_item_run ON trial_item(run_id, field_key, state);

ALTER TABLE trial ADD COLUMN worker TEXT;
