package dev.racetriage.prefilter.facts;

/** Where a named racy shape was found, and on which field. */
public record PatternHit(RacePattern pattern, String fieldKey, String file, int line) {}
