package dev.racetriage.agent.detect;

/**
 * One detected race: the field key of the location (ARCHITECTURE "field key": {@code pkg.Cls.field}, or
 * {@code pkg.Cls.slots[]} for array elements), its kind, the access that found the race and the earlier write.
 */
public record RaceReport(String fieldKey, RaceKind kind, Access current, Access previous) {
}
