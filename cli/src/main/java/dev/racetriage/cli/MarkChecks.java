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
 * What {@code mark} refuses unless {@code --force}: a field the database knows nothing about while it knows other
 * fields (almost always a typo, and a mark on a typo silences nothing), and a race whose verdict is destructive.
 */
final class MarkChecks {
  /** Refusals are decisions the user can override with a flag, so they exit as bad usage. */
  static final int REFUSED = 2;
  private static final int SUGGESTIONS = 3;

  private MarkChecks() {}

  /** Passes a field that has a race, a static candidate or a mark, and any field while nothing has been found yet. */
  static void requireKnown(TriageStore store, FieldKey field) {
    List<FieldKey> known = new ArrayList<>(store.races().fields());
    store.candidates().all().stream().map(StaticCandidate::field).forEach(known::add);
    if (known.isEmpty() || known.contains(field) || store.marks().find(field).isPresent()) {
      return;
    }
    store.marks().all().stream().map(TrustedBenignMark::field).forEach(known::add);
    String closest = ClosestFields.to(field, known, SUGGESTIONS).stream()
        .map(FieldKey::toString).collect(Collectors.joining(", "));
    throw new UserError("no race or static candidate is recorded on " + field + " in " + store.file()
        + " (closest: " + closest + "). Check the spelling, or pass --force to mark it ahead of detection.", REFUSED);
  }

  /** Refuses a race whose current verdict is destructive, quoting its evidence. */
  static void requireNotDestructive(TriageStore store, FieldKey field) {
    Optional<RaceSummary> race = store.races().find(field);
    if (race.isEmpty() || race.get().verdict() != Verdict.DESTRUCTIVE) {
      return;
    }
    String evidence = store.verdicts().current(field)
        .map(record -> record.evidence())
        .map(Evidence::summary)
        .filter(summary -> !summary.isBlank())
        .map(summary -> " (" + summary + ")")
        .orElse("");
    throw new UserError(field + " is destructive" + evidence + ": stale values made a test fail. Marking it "
        + "trusted-benign would turn CI green while that evidence stands. Fix the race, or run 'racetriage triage "
        + "--field " + field + "' after changing the code; pass --force to mark it anyway (the evidence is kept).",
        REFUSED);
  }
}
