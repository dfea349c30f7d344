package dev.racetriage.store.races;

/** The two race kinds reported: write-read and write-write (read-write-only races keep the program SC). */
public enum RaceKind {
  WR,
  WW
}
