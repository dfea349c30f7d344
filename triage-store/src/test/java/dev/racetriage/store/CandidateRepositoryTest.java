package dev.racetriage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.candidates.StaticCandidate;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

@OnEveryEngine
class CandidateRepositoryTest {
  @Parameter TestEngine engine;

  @TempDir Path project;

  private static StaticCandidate candidate(String key, String file, int line, double confidence) {
    return new StaticCandidate(FieldKey.parse(key), file, line, confidence, List.of("lossy-counter"),
        List.of("f++ in run() without lock"));
  }

  @Test
  void replacingAFileKeepsOtherFilesAndDropsWhatIsGone() {
    try (TriageStore store = TriageStore.open(engine.location(project, "t.db"), project)) {
      store.candidates().replaceForFile("A.java", List.of(candidate("p.A.x", "A.java", 3, 0.9),
          candidate("p.A.y", "A.java", 4, 0.4)));
      store.candidates().replaceForFile("B.java", List.of(candidate("p.B.z", "B.java", 8, 0.6)));
      store.candidates().replaceForFile("A.java", List.of(candidate("p.A.y", "A.java", 5, 0.5)));

      List<StaticCandidate> inA = store.candidates().forFile("A.java");
      assertEquals(1, inA.size());
      assertEquals(5, inA.get(0).line());
      assertEquals(List.of("lossy-counter"), inA.get(0).patterns());
      assertEquals(List.of("f++ in run() without lock"), inA.get(0).reasons());
      assertEquals(List.of("p.B.z", "p.A.y"),
          store.candidates().all().stream().map(c -> c.field().toString()).toList(), "by confidence");
      assertTrue(store.candidates().find(FieldKey.parse("p.A.x")).isEmpty());

      store.candidates().replaceAll(List.of(candidate("p.C.w", "C.java", 1, 0.1)));
      assertEquals(List.of("p.C.w"), store.candidates().all().stream().map(c -> c.field().toString()).toList());
    }
  }
}
