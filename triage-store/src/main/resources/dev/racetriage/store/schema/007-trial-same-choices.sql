-- racetriage triage store, schema version 7: which other adversarial heuristics a trial's run would have served
-- alike, read for read ("sameChoicesAs" in the agent's report: oldest, oldest-but-different, random-but-different,
-- random), so that a resumed triage or a worker taking over a unit counts a stored run towards those heuristics'
-- benign runs as the run that made it did. Comma-separated heuristic names; empty when no other heuristic would
-- have; null when not known (trials recorded before version 7): such a run shares nothing.
ALTER TABLE trial ADD COLUMN same_choices TEXT;
