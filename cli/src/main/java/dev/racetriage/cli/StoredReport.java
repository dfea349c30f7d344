package dev.racetriage.cli;

import dev.racetriage.dashboard.export.ExportedRace;
import dev.racetriage.dashboard.export.RaceCollector;
import dev.racetriage.dashboard.source.AccessSources;
import dev.racetriage.dashboard.source.ProjectFiles;
import dev.racetriage.prefilter.facts.RacePattern;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.candidates.StaticCandidate;
import dev.racetriage.store.races.RaceQuery;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Predicate;

/**
 * The stored verdicts of a project as {@code racetriage report} shows them: every race the filters keep, with the
 * same data the dashboard's exports carry (one collector serves both), plus the prefilter's fix advice.
 */
final class StoredReport {
  private StoredReport() {}

  /** The races matching {@code query} and {@code keep}, most severe first, and how many rows could not be read. */
  static RaceCollector.Collected collect(TriageStore store, RaceQuery query, Predicate<ExportedRace> keep) {
    RaceCollector collector = new RaceCollector(store, new AccessSources(new ProjectFiles(store.projectDir())),
        StoredReport::fixAdvice);
    RaceCollector.Collected all = collector.collect(query);
    return new RaceCollector.Collected(all.races().stream().filter(keep).toList(), all.unreadable());
  }

  /** The fixes of the patterns the static prefilter matched on the field, in the prefilter's words. */
  static List<String> fixAdvice(StaticCandidate candidate) {
    LinkedHashSet<String> fixes = new LinkedHashSet<>();
    for (String id : candidate.patterns()) {
      Arrays.stream(RacePattern.values()).filter(p -> p.id().equals(id)).findFirst()
          .ifPresent(p -> fixes.add(p.fix()));
    }
    return new ArrayList<>(fixes);
  }
}
