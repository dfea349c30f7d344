-- racetriage triage store, schema version 1. Times are epoch milliseconds (UTC).

-- One row per field key; every other table refers to fields through it.
CREATE TABLE field (
  id          INTEGER PRIMARY KEY,
  field_key   TEXT NOT NULL UNIQUE,
  class_name  TEXT NOT NULL,
  member      TEXT NOT NULL,
  is_array    INTEGER NOT NULL CHECK (is_array IN (0, 1))
);
CREATE INDEX field_class ON field(class_name);

-- A scan, triage or daemon cycle.
CREATE TABLE run (
  id           INTEGER PRIMARY KEY,
  kind         TEXT NOT NULL,
  started_at   INTEGER NOT NULL,
  finished_at  INTEGER,
  commit_id    TEXT,
  fingerprint  TEXT,
  status       TEXT NOT NULL CHECK (status IN ('RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED')),
  message      TEXT
);
CREATE INDEX run_started ON run(started_at);

-- Static prefilter candidates: at most one per field (its declaration).
CREATE TABLE candidate (
  field_id    INTEGER PRIMARY KEY REFERENCES field(id) ON DELETE CASCADE,
  file        TEXT NOT NULL,
  line        INTEGER NOT NULL,
  confidence  REAL NOT NULL,
  patterns    TEXT NOT NULL,
  reasons     TEXT NOT NULL,
  updated_at  INTEGER NOT NULL
);
CREATE INDEX candidate_file ON candidate(file);

-- A race the agent observed on a field. The current verdict is kept here (denormalised from verdict, written in
-- the same transaction) so that lists can filter and sort on it.
CREATE TABLE race (
  id              INTEGER PRIMARY KEY,
  field_id        INTEGER NOT NULL UNIQUE REFERENCES field(id) ON DELETE CASCADE,
  has_wr          INTEGER NOT NULL CHECK (has_wr IN (0, 1)),
  has_ww          INTEGER NOT NULL CHECK (has_ww IN (0, 1)),
  verdict         TEXT NOT NULL DEFAULT 'PENDING'
                  CHECK (verdict IN ('DESTRUCTIVE', 'QOS', 'BENIGN', 'UNEXERCISED', 'FLAKY', 'PENDING')),
  verdict_at      INTEGER,
  first_seen_at   INTEGER NOT NULL,
  last_seen_at    INTEGER NOT NULL,
  first_run_id    INTEGER REFERENCES run(id) ON DELETE SET NULL,
  last_run_id     INTEGER REFERENCES run(id) ON DELETE SET NULL
);
CREATE INDEX race_verdict ON race(verdict);

-- The accesses that took part in the race; site_key deduplicates repeated reports of one site.
CREATE TABLE race_access (
  id         INTEGER PRIMARY KEY,
  race_id    INTEGER NOT NULL REFERENCES race(id) ON DELETE CASCADE,
  site_key   TEXT NOT NULL,
  access     TEXT NOT NULL CHECK (access IN ('READ', 'WRITE')),
  thread     TEXT NOT NULL,
  file       TEXT,
  line       INTEGER NOT NULL,
  stack      TEXT NOT NULL,
  UNIQUE (race_id, site_key)
);

-- The tests that touched the racy field (class#method).
CREATE TABLE race_test (
  race_id  INTEGER NOT NULL REFERENCES race(id) ON DELETE CASCADE,
  test     TEXT NOT NULL,
  PRIMARY KEY (race_id, test)
) WITHOUT ROWID;

-- One run of one test with one field jumbled under one heuristic.
CREATE TABLE trial (
  id           INTEGER PRIMARY KEY,
  race_id      INTEGER NOT NULL REFERENCES race(id) ON DELETE CASCADE,
  run_id       INTEGER REFERENCES run(id) ON DELETE SET NULL,
  test         TEXT NOT NULL,
  heuristic    TEXT NOT NULL,
  seed         INTEGER NOT NULL,
  outcome      TEXT NOT NULL CHECK (outcome IN ('PASS', 'FAIL', 'TIMEOUT')),
  duration_ms  INTEGER NOT NULL,
  reads        INTEGER NOT NULL,
  stale_reads  INTEGER NOT NULL,
  failure      TEXT,
  recorded_at  INTEGER NOT NULL
);
CREATE INDEX trial_race ON trial(race_id, heuristic);

-- Verdict history: a row per change; race.verdict mirrors the newest.
CREATE TABLE verdict (
  id          INTEGER PRIMARY KEY,
  race_id     INTEGER NOT NULL REFERENCES race(id) ON DELETE CASCADE,
  run_id      INTEGER REFERENCES run(id) ON DELETE SET NULL,
  verdict     TEXT NOT NULL
              CHECK (verdict IN ('DESTRUCTIVE', 'QOS', 'BENIGN', 'UNEXERCISED', 'FLAKY', 'PENDING')),
  evidence    TEXT NOT NULL,
  decided_at  INTEGER NOT NULL
);
CREATE INDEX verdict_race ON verdict(race_id, id);

-- Team decisions; a field may be marked before any race is seen on it. Mirrored to .racetriage/trusted-benign.json.
CREATE TABLE trusted_benign_mark (
  field_id   INTEGER PRIMARY KEY REFERENCES field(id) ON DELETE CASCADE,
  author     TEXT NOT NULL,
  note       TEXT NOT NULL,
  marked_at  INTEGER NOT NULL
);

-- Every triage action, never updated or deleted.
CREATE TABLE audit_log (
  id        INTEGER PRIMARY KEY,
  field_id  INTEGER NOT NULL REFERENCES field(id) ON DELETE CASCADE,
  action    TEXT NOT NULL CHECK (action IN ('MARK_TRUSTED_BENIGN', 'REOPEN', 'COMMENT', 'IMPORT_MARK')),
  author    TEXT NOT NULL,
  note      TEXT,
  at        INTEGER NOT NULL
);
CREATE INDEX audit_field ON audit_log(field_id, id);

-- The daemon's work queue. At most one pending item per field; a claimed item whose lease ran out may be claimed
-- again (its claimer is presumed dead).
CREATE TABLE work_item (
  id           INTEGER PRIMARY KEY,
  field_id     INTEGER NOT NULL REFERENCES field(id) ON DELETE CASCADE,
  reason       TEXT NOT NULL,
  priority     INTEGER NOT NULL,
  state        TEXT NOT NULL CHECK (state IN ('PENDING', 'CLAIMED', 'DONE', 'FAILED')),
  enqueued_at  INTEGER NOT NULL,
  claimed_by   TEXT,
  claimed_at   INTEGER,
  lease_until  INTEGER,
  attempts     INTEGER NOT NULL DEFAULT 0,
  finished_at  INTEGER,
  error        TEXT
);
CREATE UNIQUE INDEX work_item_one_pending ON work_item(field_id) WHERE state = 'PENDING';
CREATE INDEX work_item_claimable ON work_item(state, priority, id);
