package dev.racetriage.store.detail;

import dev.racetriage.store.candidates.StaticCandidate;
import dev.racetriage.store.marks.AuditEntry;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.RaceEvent;
import dev.racetriage.store.races.RaceSummary;
import dev.racetriage.store.trials.TrialRecord;
import dev.racetriage.store.verdicts.VerdictRecord;
import java.util.List;
import java.util.Map;

/**
 * Everything known about one race, read from one snapshot: the summary (current verdict, mark), the accesses, the
 * tests, the trials grouped by heuristic ({@code sc} first), the verdict history (oldest first), the audit log
 * (oldest first), the static candidate if the prefilter flagged the field ({@code candidate} may be null) and the
 * lifecycle changes (fixed, regressed; oldest first).
 */
public record RaceDetail(
    RaceSummary summary,
    List<AccessSite> accesses,
    List<String> tests,
    Map<String, List<TrialRecord>> trialsByHeuristic,
    List<VerdictRecord> verdictHistory,
    List<AuditEntry> auditLog,
    StaticCandidate candidate,
    List<RaceEvent> events) {}
