package dev.racetriage.dashboard;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.candidates.StaticCandidate;
import dev.racetriage.store.engine.StoreLocation;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.AccessType;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.runs.RunStatus;
import dev.racetriage.store.trials.Trial;
import dev.racetriage.store.trials.TrialOutcome;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.Verdict;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A small project on disk with a real triage database written through the store's API: a destructive race whose
 * failure message carries an XSS payload, a qos race, a benign race already marked trusted-benign, and as many
 * generated pending races as a test asks for (pagination).
 */
final class FixtureProject implements AutoCloseable {
  static final String XSS = "<img src=x onerror=alert('xss')><script>alert(1)</script>";
  static final FieldKey CACHE_HASH = FieldKey.parse("com.example.Cache.hash");
  static final FieldKey STATS_HITS = FieldKey.parse("com.example.Stats.hits");
  static final FieldKey FLAG_DONE = FieldKey.parse("com.example.Flag$Inner.done");
  static final String CACHE_SOURCE = """
      package com.example;

      public class Cache {
        private int hash;
        private final String value;

        public Cache(String value) {
          this.value = value;
        }

        public int hashCode() {
          int h = hash;
          if (h == 0) {
            h = value.hashCode();
            hash = h;
          }
          return h;
        }
      }
      """;

  final Path dir;
  /** The SQLite file, or null when the fixture's store is a PostgreSQL one. */
  final Path dbFile;
  final StoreLocation location;
  final TriageStore store;
  final Run run;

  private FixtureProject(Path dir, StoreLocation location, TriageStore store, Run run) {
    this.dir = dir;
    this.dbFile = location.fileOrNull();
    this.location = location;
    this.store = store;
    this.run = run;
  }

  static FixtureProject create(Path dir, int generatedRaces) {
    return create(dir, generatedRaces, StoreLocation.file(TriageStore.defaultDatabase(dir)));
  }

  /** As {@link #create(Path, int)}, with the races in the store at {@code location}. */
  static FixtureProject create(Path dir, int generatedRaces, StoreLocation location) {
    try {
      Path sources = dir.resolve("src/main/java/com/example");
      Files.createDirectories(sources);
      Files.writeString(sources.resolve("Cache.java"), CACHE_SOURCE);
      Files.writeString(sources.resolve("Stats.java"), "package com.example;\n\nclass Stats {\n  int hits;\n}\n");
      Files.createDirectories(dir.resolve(".git"));
      Files.writeString(dir.resolve(".git/config"), "[core]\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    TriageStore store = TriageStore.open(location, dir);
    Run run = store.runs().start("triage", "abc123", null);
    recordCache(store, run.id());
    recordStats(store, run.id());
    recordFlag(store, run.id());
    List<Race> generated = new ArrayList<>();
    for (int i = 0; i < generatedRaces; i++) {
      generated.add(new Race(
          FieldKey.parse(String.format("org.generated.Gen%04d.f", i)), Set.of(RaceKind.WW),
          List.of(new AccessSite(AccessType.WRITE, "worker-" + i, "Gen.java", 10, List.of())), Set.of("org.generated.GenTest#t")));
    }
    for (Race race : generated) {
      store.races().upsert(race, run.id());
    }
    store.runs().finish(run.id(), RunStatus.SUCCEEDED, "3 races classified", "fp");
    return new FixtureProject(dir, location, store, run);
  }

  private static void recordCache(TriageStore store, long runId) {
    store.races().upsert(new Race(
        CACHE_HASH, Set.of(RaceKind.WR, RaceKind.WW),
        List.of(
            new AccessSite(AccessType.WRITE, "pool-1-thread-1", "Cache.java", 15,
                List.of("com.example.Cache.hashCode(Cache.java:15)", "com.example.CacheTest.lambda$0(CacheTest.java:20)")),
            new AccessSite(AccessType.READ, "pool-1-thread-2", "Cache.java", 12,
                List.of("com.example.Cache.hashCode(Cache.java:12)")),
            // the same read reached through another caller: one site on the page
            new AccessSite(AccessType.READ, "pool-1-thread-3", "Cache.java", 12,
                List.of("com.example.Cache.hashCode(Cache.java:12)", "com.example.Other.use(Other.java:3)"))),
        Set.of("com.example.CacheTest#concurrentHash")), runId);
    List<Trial> trials = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      trials.add(new Trial(CACHE_HASH, "com.example.CacheTest#concurrentHash", "sc", i, TrialOutcome.PASS,
          Duration.ofMillis(100 + i), 50, 0, null));
      boolean fails = i < 2;
      trials.add(new Trial(CACHE_HASH, "com.example.CacheTest#concurrentHash", "oldest", i,
          fails ? TrialOutcome.FAIL : TrialOutcome.PASS, Duration.ofMillis(120 + i), 50, 20,
          fails ? "org.opentest4j.AssertionFailedError: expected <42> but was " + XSS + "\n\tat com.example.CacheTest" : null));
    }
    store.trials().addAll(trials, runId);
    store.candidates().replaceForFile("src/main/java/com/example/Cache.java", List.of(new StaticCandidate(
        CACHE_HASH, "src/main/java/com/example/Cache.java", 4, 0.8, List.of("racy-lazy-init"),
        List.of("written in hashCode() without a lock; read in hashCode() without a lock"))));
    store.verdicts().set(CACHE_HASH, Verdict.DESTRUCTIVE, new Evidence(
        "2/4 runs failed under oldest, 0/4 under sc " + XSS,
        "racetriage triage --replay com.example.Cache.hash --heuristic oldest --seed 0",
        "org.opentest4j.AssertionFailedError: expected <42> but was " + XSS,
        Map.of("observationRate", "0.40")), runId);
  }

  private static void recordStats(TriageStore store, long runId) {
    store.races().upsert(new Race(
        STATS_HITS, Set.of(RaceKind.WW),
        List.of(new AccessSite(AccessType.WRITE, "main", "Stats.java", 4, List.of("com.example.Stats.hit(Stats.java:4)"))),
        Set.of("com.example.StatsTest#count")), runId);
    store.trials().addAll(List.of(
        new Trial(STATS_HITS, "com.example.StatsTest#count", "sc", 1, TrialOutcome.PASS, Duration.ofMillis(50), 10, 0, null),
        new Trial(STATS_HITS, "com.example.StatsTest#count", "random", 1, TrialOutcome.PASS, Duration.ofMillis(400), 10, 6, null)),
        runId);
    store.verdicts().set(STATS_HITS, Verdict.QOS, Evidence.of("random 8x slower than sc"), runId);
  }

  private static void recordFlag(TriageStore store, long runId) {
    store.races().upsert(new Race(
        FLAG_DONE, Set.of(RaceKind.WR),
        List.of(new AccessSite(AccessType.READ, "t", "Flag.java", 3, List.of())), Set.of("com.example.FlagTest#stop")),
        runId);
    store.verdicts().set(FLAG_DONE, Verdict.BENIGN, Evidence.of("stale values served, no failure"), runId);
    store.marks().markTrustedBenign(FLAG_DONE, "alice", "a stale flag only delays the stop by one loop");
  }

  @Override
  public void close() {
    store.close();
  }
}
