-- racetriage triage store, schema version 4: what a trial was run from, so an interrupted triage can be resumed.
-- The runner persists each trial as it finishes with a key of its inputs (a hash of the project's class-file
-- fingerprint, the agent version, field, test, heuristic, seed and jumbled indices); a re-run plans the same cells,
-- looks their keys up and reuses the trials it finds instead of running them again. Null for trials recorded before
-- version 4 or without a key: those are never reused.
ALTER TABLE trial ADD COLUMN inputs_key TEXT;
CREATE INDEX trial_inputs ON trial(inputs_key) WHERE inputs_key IS NOT NULL;
