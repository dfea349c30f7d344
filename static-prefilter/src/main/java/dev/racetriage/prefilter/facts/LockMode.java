package dev.racetriage.prefilter.facts;

/**
 * How a lock is held. Two accesses are mutually excluded by a common lock unless both hold it SHARED (two holders of
 * a read lock run at the same time).
 */
public enum LockMode {
  EXCLUSIVE,
  SHARED;
}
