package dev.racetriage.lsp.triage;

import dev.racetriage.store.replay.ReplayTarget;
import dev.racetriage.store.trials.HeuristicRates;
import dev.racetriage.lsp.findings.AccessSite;
import dev.racetriage.lsp.findings.FieldFinding;
import dev.racetriage.lsp.findings.FieldKeys;
import dev.racetriage.lsp.findings.FieldStatus;
import dev.racetriage.lsp.findings.HeuristicRow;
import dev.racetriage.lsp.findings.VerdictEvidence;
import dev.racetriage.lsp.workspace.WorkspaceLayout;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.detail.RaceDetail;
import dev.racetriage.store.marks.TrustedBenignMark;
import dev.racetriage.store.queue.WorkItem;
import dev.racetriage.store.queue.WorkState;
import dev.racetriage.store.races.CodeScope;
import dev.racetriage.store.races.RaceSummary;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.runs.RunStatus;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.VerdictRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The {@link TriageDatabase} of the editor, on the project's {@link TriageStore}. */
public final class StoreTriageDatabase implements TriageDatabase {
  /** Above the daemon's own change-driven items: the user is waiting for this one. */
  static final int EDITOR_PRIORITY = 100;

  private final TriageStore store;
  private final SourceLocator sources;
  // the findings of each class and the marks, valid for one data version: an edit re-reads nothing unless the store
  // changed (a file with 200 races would otherwise cost 400 queries per keystroke)
  private long cachedVersion = Long.MIN_VALUE;
  private final Map<String, List<FieldFinding>> byClass = new java.util.HashMap<>();
  private List<TrustedBenignMark> marks;

  private StoreTriageDatabase(TriageStore store, SourceLocator sources) {
    this.store = store;
    this.sources = sources;
  }

  /** The real opener: refuses to create a database just to read it (no daemon has run: no verdicts). */
  public static final TriageDatabaseOpener OPENER = (database, root, create) -> {
    if (!create && !Files.exists(database)) {
      throw new IllegalStateException("no triage database at " + database + " yet (run 'racetriage triage' or the"
          + " daemon)");
    }
    WorkspaceLayout layout = WorkspaceLayout.detect(root);
    return new StoreTriageDatabase(TriageStore.open(database, root), new SourceLocator(root, layout.sourceRoots()));
  };

  @Override
  public long dataVersion() {
    return store.dataVersion();
  }

  @Override
  public synchronized List<FieldFinding> verdicts(Collection<String> fieldKeys, Path file) {
    long version = store.dataVersion();
    if (version != cachedVersion) {
      invalidate();
      cachedVersion = version;
    }
    Set<String> classes = new LinkedHashSet<>();
    for (String key : fieldKeys) {
      String owner = FieldKeys.owner(key);
      classes.add(owner.contains("$") ? owner.substring(0, owner.indexOf('$')) : owner);
    }
    Map<String, FieldFinding> findings = new LinkedHashMap<>();
    for (String className : classes) {
      for (FieldFinding finding : byClass.computeIfAbsent(className, this::load)) {
        findings.put(finding.fieldKey(), finding);
      }
    }
    if (marks == null) {
      marks = store.marks().all();
    }
    // marks need no race: a static candidate the team has set aside is hidden too
    for (TrustedBenignMark mark : marks) {
      String key = mark.field().toString();
      if (fieldKeys.contains(key) && !findings.containsKey(key)) {
        findings.put(key, markedOnly(key, mark));
      }
    }
    return List.copyOf(findings.values());
  }

  private List<FieldFinding> load(String className) {
    List<FieldFinding> loaded = new ArrayList<>();
    for (RaceSummary race : store.races().forClass(className)) {
      store.detail(race.field()).ifPresent(detail -> loaded.add(finding(detail)));
    }
    return loaded;
  }

  private void invalidate() {
    byClass.clear();
    marks = null;
  }

  private FieldFinding finding(RaceDetail detail) {
    RaceSummary summary = detail.summary();
    FieldKey field = summary.field();
    Optional<VerdictRecord> current = detail.verdictHistory().isEmpty()
        ? Optional.empty() : Optional.of(detail.verdictHistory().get(detail.verdictHistory().size() - 1));
    FieldStatus status = summary.mark() != null
        ? FieldStatus.TRUSTED_BENIGN
        : FieldStatus.fromVerdict(summary.verdict().label()).filter(s -> s != FieldStatus.CANDIDATE)
            .orElse(FieldStatus.RACY);
    Evidence evidence = current.map(VerdictRecord::evidence).orElse(Evidence.of(""));
    List<String> reasons = new ArrayList<>();
    evidence.facts().forEach((name, value) -> reasons.add(name + ": " + value));
    if (!detail.tests().isEmpty()) {
      reasons.add("tests: " + String.join(", ", detail.tests()));
    }
    List<AccessSite> accesses = new ArrayList<>();
    List<String> projectPaths = new ArrayList<>();
    for (var access : detail.accesses()) {
      Optional<Path> path = sources.locate(access.file(), access.stack(), field.className());
      projectPaths.add(path.map(sources::projectPath).orElse(null));
      if (path.isPresent()) {
        String frame = access.stack().isEmpty() ? "" : " at " + access.stack().get(0);
        accesses.add(new AccessSite(path.get(), access.line(),
            access.type().name().toLowerCase(java.util.Locale.ROOT) + " by thread " + access.thread() + frame));
      }
    }
    List<HeuristicRow> rows = HeuristicRates.of(detail.trialsByHeuristic()).stream().map(StoreTriageDatabase::row)
        .toList();
    Optional<String> markNote = Optional.ofNullable(summary.mark())
        .map(mark -> mark.note() + " (" + mark.author() + ", " + mark.markedAt() + ")");
    return new FieldFinding(field.toString(), status, status.id(), evidence.summary(), reasons, 1.0, accesses,
        new VerdictEvidence(rows, Optional.ofNullable(evidence.firstFailure()).filter(s -> !s.isBlank()),
            ReplayTarget.decisive(detail).map(t -> t.command(store.projectDir())), markNote,
            CodeScope.inTestCode(projectPaths)));
  }

  private static FieldFinding markedOnly(String key, TrustedBenignMark mark) {
    return new FieldFinding(key, FieldStatus.TRUSTED_BENIGN, FieldStatus.TRUSTED_BENIGN.id(), "", List.of(), 1.0,
        List.of(), new VerdictEvidence(List.of(), Optional.empty(), Optional.empty(),
            Optional.of(mark.note() + " (" + mark.author() + ", " + mark.markedAt() + ")"), false));
  }

  private static HeuristicRow row(HeuristicRates r) {
    return new HeuristicRow(r.heuristic(), r.runs(), r.failures() + r.timeouts(), r.staleReads(), r.failureRate(),
        r.staleReadRate(), r.medianMillis());
  }

  @Override
  public synchronized void markTrustedBenign(String fieldKey, String author, String note) {
    markTrustedBenign(fieldKey, author, note, false);
  }

  @Override
  public synchronized void markTrustedBenign(String fieldKey, String author, String note,
      boolean overridesDestructive) {
    store.marks().markTrustedBenign(FieldKey.parse(fieldKey), author, note, overridesDestructive);
    invalidate();
  }

  @Override
  public synchronized Optional<String> destructiveEvidence(String fieldKey) {
    FieldKey field = FieldKey.parse(fieldKey);
    return store.races().find(field)
        .filter(r -> r.verdict() == dev.racetriage.store.verdicts.Verdict.DESTRUCTIVE)
        .map(r -> store.verdicts().current(field).map(v -> v.evidence().summary()).filter(s -> !s.isBlank())
            .orElse("a test failed with stale values"));
  }

  @Override
  public synchronized void syncSharedMarks() {
    store.marks().syncFromMirror();
    invalidate();
  }

  @Override
  public void enqueueTriage(String fieldKey, String reason) {
    store.queue().enqueue(FieldKey.parse(fieldKey), reason, EDITOR_PRIORITY);
  }

  /** A run in progress, with the queue's items done since it started and those still waiting or claimed. */
  @Override
  public Optional<DaemonActivity> activity() {
    Optional<Run> running = store.runs().recent(1).stream().filter(r -> r.status() == RunStatus.RUNNING).findFirst();
    Map<WorkState, Long> counts = store.queue().counts();
    long waiting = counts.getOrDefault(WorkState.PENDING, 0L) + counts.getOrDefault(WorkState.CLAIMED, 0L);
    if (running.isEmpty() && counts.getOrDefault(WorkState.CLAIMED, 0L) == 0) {
      return Optional.empty();
    }
    List<WorkItem> claimed = store.queue().list(WorkState.CLAIMED, 1);
    long done = running.map(run -> store.queue().list(WorkState.DONE, 10_000).stream()
            .filter(item -> item.finishedAt() != null && !item.finishedAt().isBefore(run.startedAt())).count())
        .orElse(0L);
    String runId = running.map(run -> Long.toString(run.id())).orElse("queue");
    return Optional.of(new DaemonActivity(runId, (int) done, (int) (done + waiting),
        claimed.stream().findFirst().map(item -> item.field().toString())));
  }

  @Override
  public Path location() {
    return store.file();
  }

  @Override
  public void close() {
    store.close();
  }
}
