package dev.racetriage.cli;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.candidates.StaticCandidate;
import dev.racetriage.store.marks.TrustedBenignMark;
import dev.racetriage.store.races.RaceSummary;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What {@code mark} refuses unless a flag says it is meant: a field that neither the database nor the project's sources
 * know while the database knows other fields (almost always a typo, and a mark on a typo silences nothing;
 * {@code --force}), a race whose verdict is destructive ({@code --override-destructive}), and a second note replacing
 * a first ({@code --replace}).
 */
final class MarkChecks {
  /** Refusals are decisions the user can override with a flag, so they exit as bad usage. */
  static final int REFUSED = 2;
  private static final int SUGGESTIONS = 3;

  private MarkChecks() {}

  /**
   * Passes a field that has a race, a static candidate or a mark, a field its class's source file declares, and any
   * field while nothing has been found yet.
   */
  static void requireKnown(TriageStore store, FieldKey field) {
    List<FieldKey> known = new ArrayList<>(store.races().fields());
    store.candidates().all().stream().map(StaticCandidate::field).forEach(known::add);
    if (known.isEmpty() || known.contains(field) || store.marks().find(field).isPresent()
        || DeclaredInSources.declares(store.projectDir(), field)) {
      return;
    }
    store.marks().all().stream().map(TrustedBenignMark::field).forEach(known::add);
    List<FieldKey> closest = ClosestFields.to(field, known, SUGGESTIONS);
    String suggestion = closest.isEmpty() ? ""
        : " Did you mean " + closest.get(0) + "?" + (closest.size() > 1 ? " (also close: "
            + closest.subList(1, closest.size()).stream().map(FieldKey::toString).collect(Collectors.joining(", "))
            + ")" : "");
    throw new UserError("no race, static candidate or source declaration names " + field + " (database "
        + store.location().display() + ")." + suggestion + " Check the spelling, or pass --force to mark it ahead of detection.",
        REFUSED);
  }

  /** Whether the race on {@code field} has a destructive verdict now. */
  static boolean destructive(TriageStore store, FieldKey field) {
    Optional<RaceSummary> race = store.races().find(field);
    return race.isPresent() && race.get().verdict() == Verdict.DESTRUCTIVE;
  }

  /** Refuses a second, different note on a marked field: the first note was someone's reasoning. */
  static void requireNoOtherNote(Optional<TrustedBenignMark> earlier, String note) {
    if (earlier.isPresent() && !earlier.get().note().equals(note)) {
      TrustedBenignMark before = earlier.get();
      throw new UserError(before.field() + " is already marked trusted-benign by " + before.author() + " ("
          + before.markedAt() + "): \"" + before.note() + "\". Pass --replace to replace that note (it stays in the "
          + "audit log).", REFUSED);
    }
  }

  /** Refuses a race whose current verdict is destructive, quoting its evidence. */
  static void refuseDestructive(TriageStore store, FieldKey field) {
    String evidence = store.verdicts().current(field)
        .map(record -> record.evidence())
        .map(Evidence::summary)
        .filter(summary -> !summary.isBlank())
        .map(summary -> " (" + summary + ")")
        .orElse("");
    throw new UserError(field + " is destructive" + evidence + ": stale values made a test fail. Marking it "
        + "trusted-benign would turn CI green while that evidence stands. Fix the race, or run 'racetriage triage "
        + "--field " + field + "' after changing the code; pass --override-destructive to mark it anyway (recorded "
        + "as an override; the evidence is kept and 'triage' still fails on it unless --allow-overridden).",
        REFUSED);
  }
}
