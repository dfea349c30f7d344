package dev.racetriage.agent.detect;

/**
 * One detected race: the field key of the location (ARCHITECTURE "field key": {@code pkg.Cls.field}, or
 * {@code pkg.Cls.slots[]} for array elements), its kind, the access that found the race and the earlier write, and
 * for an array element its index ({@link #NO_INDEX} otherwise) — the runner jumbles the elements that raced.
 */
public record RaceReport(String fieldKey, RaceKind kind, Access current, Access previous, int index) {
    /** The index of a race on a field, not an array element. */
    public static final int NO_INDEX = -1;

    /** A race on a field (no array index). */
    public RaceReport(String fieldKey, RaceKind kind, Access current, Access previous) {
        this(fieldKey, kind, current, previous, NO_INDEX);
    }
}
