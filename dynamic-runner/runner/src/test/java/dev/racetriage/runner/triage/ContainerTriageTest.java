package dev.racetriage.runner.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.runner.project.ProjectFixtures;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.verdicts.Verdict;
import dev.racetriage.store.verdicts.VerdictRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Container races end to end (Maven build, baseline, detection with the agent's default container model, trials under
 * sc and perturb in forked JVMs, verdicts in the store): the evaluation corpus's builder appended from two threads and
 * its tree map filled from two threads are destructive, its cache whose lost entries are recomputed benign. (The
 * corpus's unsafe list and static date format fail in about one perturbed run of eight to ten, at the benign rule's
 * bound: a triage may call them benign, so they are not part of this test.)
 */
class ContainerTriageTest {
  @TempDir Path dir;

  private static final String TEXT = "dev.racetriage.corpus.AuditTrail.text{}";
  private static final String NAMES = "dev.racetriage.corpus.NameCache.names{}";
  private static final String RANKS = "dev.racetriage.corpus.RankBoard.ranks{}";

  @Test
  void anUnsafeBuilderAndTreeMapAreDestructiveAndARecomputedCacheBenign() throws Exception {
    Path corpus = ProjectFixtures.repositoryRoot().resolve("benchmarks/corpus/src");
    Map<String, String> files = new TreeMap<>();
    for (String f : List.of("main/java/dev/racetriage/corpus/AuditTrail.java",
        "main/java/dev/racetriage/corpus/NameCache.java", "main/java/dev/racetriage/corpus/RankBoard.java",
        "test/java/dev/racetriage/corpus/UnsafeContainersTest.java", "test/java/dev/racetriage/corpus/Concurrently.java")) {
      files.put("src/" + f, Files.readString(corpus.resolve(f)));
    }
    Path root = dir.resolve("containers");
    ProjectFixtures.writeProject(root, files);

    TriageOptions defaults = TriageOptions.defaults(root);
    TriageOptions options = new TriageOptions(root, null, false, 60, defaults.heuristics(), defaults.jobs(), null,
        defaults.buildTimeout(), defaults.baselineTimeout());
    TriageResult result = new TriagePipeline().run(options, TriageProgress.silent());

    Map<String, Verdict> verdicts = new TreeMap<>();
    result.races().forEach(r -> verdicts.put(r.race().fieldKey(), r.verdict()));
    assertEquals(Map.of(TEXT, Verdict.DESTRUCTIVE, NAMES, Verdict.BENIGN, RANKS, Verdict.DESTRUCTIVE), verdicts, result.races().toString());
    try (TriageStore store = TriageStore.openProject(root)) {
      VerdictRecord text = store.verdicts().current(FieldKey.parse(TEXT)).orElseThrow();
      assertTrue(text.evidence().summary().contains("under perturb"), text.evidence().summary());
      // the decisive trial is a failing one: perturbed, or a control run whose calls overlapped or interleaved on
      // their own (the builder can lose or cut a line without perturbation too, which also makes it destructive)
      String replay = text.evidence().replayCommand();
      assertTrue(replay.contains("heuristic=perturb") || replay.contains("heuristic=sc"), replay);
      assertTrue(replay.contains("field=" + TEXT), replay);
      VerdictRecord names = store.verdicts().current(FieldKey.parse(NAMES)).orElseThrow();
      assertTrue(names.evidence().summary().contains("overlapping calls on the container under perturbation"),
          names.evidence().summary());
      assertTrue(names.evidence().facts().containsKey("container"), names.evidence().facts().toString());
      assertTrue(store.trials().forRace(FieldKey.parse(NAMES)).stream().anyMatch(t -> t.trial().heuristic().equals("perturb")));
    }
  }
}
