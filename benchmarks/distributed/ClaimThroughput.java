// Claims per second the shared store sustains (issue 23's model of N machines): THREADS claimers, each with a store
// connection of its own (as separate worker processes have), claim and complete ITEMS planned units as fast as they
// can; prints claims/s. Run from the repository root after `./racetriage --version` built the distribution:
//   java -cp "cli/target/racetriage-cli.jar:cli/target/lib/*" benchmarks/distributed/ClaimThroughput.java DB [ITEMS] [THREADS]
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.runs.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

public class ClaimThroughput {
  public static void main(String[] args) throws Exception {
    String db = args[0];
    int items = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    Path project = Files.createTempDirectory("claims");
    long runId;
    try (TriageStore store = open(db, project)) {
      Run run = store.runs().start("triage", null, "bench");
      runId = run.id();
      for (int i = 0; i < items; i++) {
        store.trialQueue().plan(runId, "fp-bench", "p.C.f" + (i % 50), "T#t" + i, "{}");
      }
    }
    AtomicInteger claimed = new AtomicInteger();
    List<Thread> pool = new ArrayList<>();
    long start = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      String worker = "bench-" + t;
      Thread thread = new Thread(() -> {
        try (TriageStore store = open(db, project)) {
          for (var item = store.trialQueue().claim(worker, "fp-bench", runId, Duration.ofMinutes(5)); item.isPresent();
              item = store.trialQueue().claim(worker, "fp-bench", runId, Duration.ofMinutes(5))) {
            store.trialQueue().complete(item.get().id(), worker, "{}");
            claimed.incrementAndGet();
          }
        }
      });
      pool.add(thread);
      thread.start();
    }
    for (Thread t : pool) t.join();
    double secs = (System.nanoTime() - start) / 1e9;
    System.out.printf("%s: %d units claimed and completed by %d claimers in %.2f s: %.0f claims/s%n",
        db.startsWith("jdbc:") ? db.replaceAll("password=[^&]*", "password=…") : "SQLite " + db, claimed.get(), threads,
        secs, claimed.get() / secs);
    try (TriageStore store = open(db, project)) {
      store.runs().finish(runId, dev.racetriage.store.runs.RunStatus.CANCELLED, "benchmark", null);
    }
  }

  private static TriageStore open(String db, Path project) {
    return TriageStore.open(Path.of(db), project);
  }
}
