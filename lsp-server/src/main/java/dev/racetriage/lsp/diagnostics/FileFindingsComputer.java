package dev.racetriage.lsp.diagnostics;

import dev.racetriage.lsp.analysis.StaticCandidates;
import dev.racetriage.lsp.documents.DocumentSnapshot;
import dev.racetriage.lsp.documents.LineIndex;
import dev.racetriage.lsp.findings.AccessSite;
import dev.racetriage.lsp.findings.FieldFinding;
import dev.racetriage.lsp.source.DeclaredField;
import dev.racetriage.lsp.source.DeclaredFields;
import dev.racetriage.lsp.source.JavaSyntax;
import dev.racetriage.lsp.triage.TriageConnection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.jsonrpc.CancelChecker;

/**
 * Puts together what one document shows: the prefilter's candidates for its current text (re-analysed only when the
 * version changed — a store update re-publishes without re-running the prefilter) and the store's verdicts for the
 * fields it declares or touches. A verdict replaces the candidate for the same field; a trusted-benign mark removes it.
 */
public final class FileFindingsComputer {
  private record CachedCandidates(int version, List<FieldFinding> findings) {}

  private final StaticCandidates staticCandidates;
  private final TriageConnection triage;
  private final BooleanSupplier staticEnabled;
  private final Runnable staticReady;
  private final Map<String, CachedCandidates> candidateCache = new ConcurrentHashMap<>();

  /** @param staticReady runs once the static analysis, not ready at some compute, has become ready (re-publish) */
  public FileFindingsComputer(StaticCandidates staticCandidates, TriageConnection triage, BooleanSupplier staticEnabled,
      Runnable staticReady) {
    this.staticCandidates = staticCandidates;
    this.triage = triage;
    this.staticEnabled = staticEnabled;
    this.staticReady = staticReady;
  }

  public FileFindings compute(DocumentSnapshot snapshot, CancelChecker cancel) {
    return compute(snapshot, cancel, true);
  }

  /** Whether static candidates for the document would come from a preview, the project being still scanned. */
  public boolean awaitsProject(DocumentSnapshot snapshot) {
    return snapshot.isJava() && staticEnabled.getAsBoolean() && !staticCandidates.ready(snapshot.path());
  }

  /** The store's verdicts alone: what a file shows at once while the project is scanned (no prefilter involved). */
  public FileFindings verdictsOnly(DocumentSnapshot snapshot, CancelChecker cancel) {
    return compute(snapshot, cancel, false);
  }

  private FileFindings compute(DocumentSnapshot snapshot, CancelChecker cancel, boolean withCandidates) {
    if (!snapshot.isJava()) {
      return new FileFindings(snapshot, List.of());
    }
    DeclaredFields declared = DeclaredFields.of(JavaSyntax.declarations(snapshot.text(), cancel));
    cancel.checkCanceled();
    List<FieldFinding> candidates =
        withCandidates && staticEnabled.getAsBoolean() ? candidates(snapshot, cancel) : List.of();
    cancel.checkCanceled();

    Set<String> keys = new LinkedHashSet<>();
    declared.all().forEach(f -> keys.add(f.fieldKey()));
    candidates.forEach(c -> keys.add(c.fieldKey()));
    List<FieldFinding> verdicts = triage.read(db -> db.verdicts(keys, snapshot.path())).orElse(List.of());

    Map<String, FieldFinding> merged = new LinkedHashMap<>();
    candidates.forEach(c -> merged.put(c.fieldKey(), c));
    for (FieldFinding verdict : verdicts) {
      FieldFinding candidate = merged.get(verdict.fieldKey());
      merged.put(verdict.fieldKey(), candidate != null && verdict.accesses().isEmpty()
          ? new FieldFinding(verdict.fieldKey(), verdict.status(), verdict.code(), verdict.summary(),
              verdict.reasons(), verdict.confidence(), candidate.accesses(), verdict.evidence())
          : verdict);
    }

    LineIndex lines = snapshot.lines();
    List<LocatedFinding> located = new ArrayList<>();
    for (FieldFinding finding : merged.values()) {
      locate(finding, snapshot, declared, lines).ifPresent(located::add);
    }
    return new FileFindings(snapshot, located);
  }

  /**
   * The document's candidates: from the project's analysis (cached per version), or — while the project is still
   * being scanned — from the document's own text alone, not cached, and replaced when the scan is done.
   */
  private List<FieldFinding> candidates(DocumentSnapshot snapshot, CancelChecker cancel) {
    if (!staticCandidates.ready(snapshot.path())) {
      staticCandidates.prepare(staticReady);
      return staticCandidates.preview(snapshot, cancel);
    }
    CachedCandidates cached = candidateCache.get(snapshot.uri());
    if (cached != null && cached.version() == snapshot.version()) {
      return cached.findings();
    }
    List<FieldFinding> fresh = staticCandidates.analyse(snapshot, cancel);
    candidateCache.put(snapshot.uri(), new CachedCandidates(snapshot.version(), fresh));
    return fresh;
  }

  private static Optional<LocatedFinding> locate(
      FieldFinding finding, DocumentSnapshot snapshot, DeclaredFields declared, LineIndex lines) {
    List<Range> accessesHere = new ArrayList<>();
    for (AccessSite access : finding.accesses()) {
      if (access.file() != null && access.file().toAbsolutePath().normalize().equals(snapshot.path())) {
        accessesHere.add(lines.lineRange(access.line()));
      }
    }
    Optional<DeclaredField> field = declared.get(finding.fieldKey());
    if (field.isPresent()) {
      Range anchor = lines.range(field.get().nameOffset(), field.get().nameLength());
      return Optional.of(new LocatedFinding(finding, anchor, true, accessesHere));
    }
    if (accessesHere.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new LocatedFinding(finding, accessesHere.get(0), false, accessesHere));
  }

  /** The document was closed: its candidates are recomputed from scratch if it opens again. */
  public void forget(String uri) {
    candidateCache.remove(uri);
  }
}
