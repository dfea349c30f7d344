package dev.racetriage.agent.trace;

import dev.racetriage.agent.detect.RaceKind;

/** A race found while interpreting a trace: at which event, on which location, of which kind. */
public record TraceRace(int eventIndex, int location, RaceKind kind) {
}
