-- racetriage triage store, schema version 2: the field keys the trusted-benign mirror file held when this database
-- last read or wrote it. A mark in the database that was in the file then but is gone from it now was removed by a
-- teammate (reopened and committed), so it is removed here too instead of being written back.
CREATE TABLE mirror_base (
  field_key  TEXT PRIMARY KEY
) WITHOUT ROWID;
