import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.AccessType;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.runs.RunStatus;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Seeds a triage store with N synthetic races for the dashboard load benchmark (benchmarks/dashboard/run.sh).
 *
 * <p>Usage: {@code java -cp "cli/target/racetriage-cli.jar:cli/target/lib/*" benchmarks/dashboard/SeedRaces.java DB [N]}
 * (N defaults to 10,000). Races are spread over 100 packages and 1,000 classes so class/text filters select a
 * realistic fraction; verdicts cycle through every kind; each race has a write, a read and two tests. Everything is
 * written in one transaction: one fsync instead of tens of thousands.
 */
public class SeedRaces {
  private static final Verdict[] VERDICTS = Verdict.values();

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: SeedRaces DB_FILE [N=10000]");
      System.exit(2);
    }
    Path db = Path.of(args[0]);
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    if (Files.exists(db)) {
      System.err.println(db + " exists already: give a fresh path so the race count is exactly " + n);
      System.exit(2);
    }
    Files.createDirectories(db.toAbsolutePath().getParent());
    long start = System.nanoTime();
    try (TriageStore store = TriageStore.open(db, db.toAbsolutePath().getParent())) {
      long runId = store.runs().start("detect", "bench", null).id();
      store.inTransaction(() -> {
        for (int i = 0; i < n; i++) {
          seed(store, i, runId);
        }
        return null;
      });
      store.runs().finish(runId, RunStatus.SUCCEEDED, "seeded " + n + " races", null);
    }
    System.out.printf("seeded %d races into %s in %.1f s%n", n, db, (System.nanoTime() - start) / 1e9);
  }

  private static void seed(TriageStore store, int i, long runId) {
    String pkg = "com.bench.p" + (i % 100);
    String cls = "Cache" + (i % 1000);
    FieldKey field = FieldKey.parse(pkg + "." + cls + ".field" + i);
    String file = pkg.replace('.', '/') + "/" + cls + ".java";
    List<AccessSite> accesses = List.of(
        new AccessSite(AccessType.WRITE, "writer-" + (i % 4), file, 10 + i % 50,
            List.of(pkg + "." + cls + ".put(" + cls + ".java:" + (10 + i % 50) + ")")),
        new AccessSite(AccessType.READ, "reader-" + (i % 3), file, 70 + i % 50,
            List.of(pkg + "." + cls + ".get(" + cls + ".java:" + (70 + i % 50) + ")")));
    Set<String> tests = Set.of(pkg + "." + cls + "Test#concurrentPut", pkg + "." + cls + "Test#readAfterWrite" + (i % 7));
    Set<RaceKind> kinds = i % 3 == 0 ? Set.of(RaceKind.WR, RaceKind.WW) : Set.of(RaceKind.WR);
    store.races().upsert(new Race(field, kinds, accesses, tests), runId);
    Verdict verdict = VERDICTS[i % VERDICTS.length];
    if (verdict != Verdict.PENDING) {
      store.verdicts().set(field, verdict, Evidence.of("synthetic " + verdict.label() + " verdict #" + i), runId);
    }
  }
}
