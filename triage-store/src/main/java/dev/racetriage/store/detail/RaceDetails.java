package dev.racetriage.store.detail;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.candidates.CandidateRepository;
import dev.racetriage.store.marks.TriageMarks;
import dev.racetriage.store.races.RaceRepository;
import dev.racetriage.store.races.RaceSummary;
import dev.racetriage.store.sqlite.Database;
import dev.racetriage.store.trials.TrialRepository;
import dev.racetriage.store.verdicts.VerdictRepository;
import java.util.Optional;

/** Assembles a {@link RaceDetail} from the topic repositories inside one read transaction. */
public final class RaceDetails {
  private final Database db;

  public RaceDetails(Database db) {
    this.db = db;
  }

  public Optional<RaceDetail> of(FieldKey field) {
    return db.read("read the race on " + field, tx -> {
      Optional<RaceSummary> summary = RaceRepository.summary(tx, field);
      if (summary.isEmpty()) {
        return Optional.empty();
      }
      long raceId = summary.get().id();
      return Optional.of(new RaceDetail(
          summary.get(),
          RaceRepository.accesses(tx, raceId),
          RaceRepository.tests(tx, raceId),
          TrialRepository.byHeuristic(tx, field),
          VerdictRepository.history(tx, field),
          TriageMarks.auditLog(tx, field),
          CandidateRepository.find(tx, field).orElse(null),
          RaceRepository.events(tx, raceId)));
    });
  }
}
