package dev.racetriage.dashboard.api;

import dev.racetriage.store.marks.TrustedBenignMark;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.races.RaceSummary;
import dev.racetriage.store.races.TriageState;
import java.time.Instant;
import java.util.List;

/**
 * A race as the API shows it in lists. {@code testCode}: every access is under {@code src/test} (a test-code race,
 * {@link dev.racetriage.store.races.CodeScope}). {@code id} is the field key — stable across databases and the one name every
 * racetriage tool uses — and is what {@code /api/races/{id}} takes; {@code raceId} is the store's row number.
 */
public record RaceRow(
    String id,
    long raceId,
    String className,
    String member,
    List<String> kinds,
    String verdict,
    Instant verdictAt,
    String state,
    Mark mark,
    int tests,
    int trials,
    Instant firstSeenAt,
    Instant lastSeenAt,
    boolean testCode) {

  /** The team's trusted-benign decision. */
  public record Mark(String author, String note, Instant markedAt) {}

  public static RaceRow of(RaceSummary race, boolean testCode) {
    TrustedBenignMark mark = race.mark();
    return new RaceRow(
        race.field().toString(),
        race.id(),
        race.field().className(),
        race.field().member() + (race.field().array() ? "[]" : ""),
        race.kinds().stream().sorted().map(RaceKind::name).toList(),
        race.verdict().label(),
        race.verdictAt(),
        stateLabel(race.triageState()),
        mark == null ? null : new Mark(mark.author(), mark.note(), mark.markedAt()),
        race.tests(),
        race.trials(),
        race.firstSeenAt(),
        race.lastSeenAt(),
        testCode);
  }

  /** {@code open} / {@code regressed} / {@code trusted-benign} / {@code fixed}: the words the API and URLs use. */
  public static String stateLabel(TriageState state) {
    return state.label();
  }
}
