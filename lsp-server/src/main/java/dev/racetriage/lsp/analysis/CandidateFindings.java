package dev.racetriage.lsp.analysis;

import dev.racetriage.lsp.findings.AccessSite;
import dev.racetriage.lsp.findings.FieldFinding;
import dev.racetriage.lsp.findings.FieldStatus;
import dev.racetriage.lsp.findings.VerdictEvidence;
import dev.racetriage.prefilter.Candidate;
import dev.racetriage.prefilter.facts.Access;
import dev.racetriage.prefilter.facts.HeldLock;
import dev.racetriage.prefilter.facts.PatternHit;
import dev.racetriage.prefilter.rank.Reason;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A prefilter {@link Candidate} as the editor shows it: code = its first named pattern (or {@code candidate}), the
 * pattern's description as the message, its fixes and confidence reasons for the hover, and the accesses outside
 * initialisation as related information (accesses before publication cannot conflict).
 */
final class CandidateFindings {
  static final String PLAIN_CANDIDATE = "candidate";

  private CandidateFindings() {}

  static FieldFinding toFinding(Candidate candidate) {
    Set<String> patternIds = new LinkedHashSet<>();
    List<String> reasons = new ArrayList<>();
    String summary = null;
    for (PatternHit hit : candidate.patterns()) {
      if (patternIds.add(hit.pattern().id())) {
        reasons.add(hit.pattern().id() + ": " + hit.pattern().fix());
        summary = summary == null ? hit.pattern().description() : summary;
      }
    }
    for (Reason reason : candidate.reasons()) {
      reasons.add(reason.toString());
    }
    if (summary == null) {
      summary = candidate.reasons().isEmpty()
          ? "no lock is common to all its accesses"
          : candidate.reasons().get(0).text();
    }
    List<AccessSite> accesses = candidate.accesses().stream()
        .filter(access -> !access.initialisation())
        .map(CandidateFindings::site)
        .toList();
    String code = patternIds.isEmpty() ? PLAIN_CANDIDATE : patternIds.iterator().next();
    return new FieldFinding(candidate.field(), FieldStatus.CANDIDATE, code, summary, reasons,
        candidate.confidence(), accesses, VerdictEvidence.none());
  }

  private static AccessSite site(Access access) {
    String verb = access.isWrite() ? (access.readModifyWrite() ? "read-modify-write" : "write") : "read";
    String locks = access.locks().isEmpty()
        ? "without lock"
        : "under " + access.locks().stream().map(HeldLock::toString).collect(Collectors.joining(" and "));
    return new AccessSite(Path.of(access.file()).toAbsolutePath().normalize(), access.line(),
        verb + " in " + access.methodLabel() + " " + locks);
  }
}
