package dev.racetriage.cli;

import dev.racetriage.store.engine.StoreLocation;
import dev.racetriage.runner.replay.TrialReplay;
import dev.racetriage.runner.triage.Preflight;
import dev.racetriage.runner.triage.TriageException;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.StoreException;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.detail.RaceDetail;
import dev.racetriage.store.projectlock.ProjectLock;
import dev.racetriage.store.replay.ReplayTarget;
import dev.racetriage.store.trials.Trial;
import dev.racetriage.store.trials.TrialOutcome;
import dev.racetriage.store.trials.TrialRecord;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description = {
      "Run one stored trial again: the test with the field jumbled under the trial's heuristic and seed, in a JVM",
      "of its own and a fresh directory under DIR/.racetriage/replay/ (the stored trial's files are not touched).",
      "Without --test/--heuristic/--seed it replays the trial the verdict rests on (the first failure).",
      "Prints the test's failure. Exit code: 1 the test failed, 0 it passed, 2 bad usage or it could not run."
    })
final class ReplayCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "FIELD", description = "Field key, e.g. com.example.Cache.hash")
  String field;

  @Option(names = "--test", paramLabel = "TEST", description = "The test (pkg.Class#method, or Class#method)")
  String test;

  @Option(names = "--heuristic", paramLabel = "H",
      description = "sc, oldest, oldest-but-different, random or random-but-different")
  String heuristic;

  @Option(names = "--seed", paramLabel = "S", description = "The seed of the heuristic's choices")
  Long seed;

  @Option(names = "--timeout", paramLabel = "DURATION", description = "Limit for the test (default: 5m)")
  String timeout;

  @Option(names = "--project", paramLabel = "DIR", description = "Project directory (default: .)")
  Path project = Path.of(".");

  @Option(names = "--db", paramLabel = StoreLocationOption.LABEL, converter = StoreLocationOption.class,
      description = StoreLocationOption.DESCRIPTION)
  StoreLocation db;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    FieldKey key;
    try {
      key = FieldKey.parse(field);
    } catch (IllegalArgumentException e) {
      throw new UserError("'" + field + "' is not a field key (pkg.Class.field): " + e.getMessage(), 2, e);
    }
    Duration limit = timeout == null ? Duration.ofMinutes(5) : DurationOption.parse("--timeout", timeout);
    Path dir = project.toAbsolutePath().normalize();
    ReplayTarget target;
    List<Integer> indices;
    try (TriageStore store = TriageStore.openReadOnly(
        db != null ? db : StoreLocation.file(TriageStore.defaultDatabase(dir)), dir)) {
      RaceDetail detail = store.detail(key).orElseThrow(() -> new UserError("no race is recorded on " + key + " in "
          + store.location().display() + closest(store, key) + ". 'racetriage report' lists the stored races.", 2));
      target = choose(detail, key);
      indices = indices(detail);
    } catch (StoreException e) {
      throw StoreOpening.failed(e);
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    TrialReplay.Result result;
    try (ProjectLock lock = Preflight.lock(Preflight.projectRoot(dir), "replay")) {
      result = new TrialReplay(Duration.ofMinutes(10), limit).run(dir, target, indices,
          line -> { err.println("racetriage: " + line); err.flush(); });
    } catch (TriageException e) {
      throw new UserError(e.getMessage(), 2, e);
    }
    out.println("Replayed " + key + " in " + target.test() + " under " + target.heuristic() + ", seed " + target.seed()
        + ": " + result.staleReads() + " of " + result.reads() + " read(s) of the field returned a stale value.");
    if (result.failed()) {
      out.println("The test FAILED" + (result.timedOut() ? " (timed out)" : "") + ":");
      out.println(result.failure().strip());
    } else {
      out.println("The test passed.");
    }
    out.println("Files: " + result.dir());
    if (result.commandFile() != null) out.println("The test JVM's command line: " + result.commandFile());
    out.flush();
    return result.failed() ? 1 : 0;
  }

  /** The trial the options name (a stored one, or exactly the given one when all three are given). */
  private ReplayTarget choose(RaceDetail detail, FieldKey key) {
    if (test != null && heuristic != null && seed != null) {
      return new ReplayTarget(key, qualified(detail, test), heuristic, seed);
    }
    if (test == null && heuristic == null && seed == null) {
      return ReplayTarget.decisive(detail).orElseThrow(() -> new UserError(key + " has no stored trial (detected "
          + "only): give --test, --heuristic and --seed, or run 'racetriage triage --field " + key + "' first.", 2));
    }
    List<Trial> trials = new ArrayList<>();
    detail.trialsByHeuristic().values().forEach(l -> l.stream().map(TrialRecord::trial).forEach(trials::add));
    List<Trial> matching = trials.stream()
        .filter(t -> test == null || t.test().equals(test) || t.test().endsWith("." + test))
        .filter(t -> heuristic == null || t.heuristic().equals(heuristic))
        .filter(t -> seed == null || t.seed() == seed)
        .toList();
    Optional<Trial> chosen = matching.stream().filter(t -> t.outcome() != TrialOutcome.PASS).findFirst()
        .or(() -> matching.stream().findFirst());
    return chosen.map(ReplayTarget::of).orElseThrow(() -> new UserError("no stored trial of " + key + " matches"
        + (test == null ? "" : " --test " + test) + (heuristic == null ? "" : " --heuristic " + heuristic)
        + (seed == null ? "" : " --seed " + seed) + "; stored: " + stored(trials)
        + ". Give all of --test, --heuristic and --seed to run a trial that was not stored.", 2));
  }

  /** A test given as {@code Class#method} is one of the race's tests ending so, when there is exactly one. */
  private static String qualified(RaceDetail detail, String test) {
    List<String> known = detail.tests().stream().filter(t -> t.equals(test) || t.endsWith("." + test)).toList();
    return known.size() == 1 ? known.get(0) : test;
  }

  private static String stored(List<Trial> trials) {
    if (trials.isEmpty()) return "none";
    return trials.stream().map(t -> t.test() + " " + t.heuristic()).distinct().limit(6)
        .collect(Collectors.joining("; ")) + (trials.size() > 6 ? "; …" : "");
  }

  /** For an array, the elements its trials jumbled (the verdict's jumbledIndices fact); else the agent's default. */
  private static List<Integer> indices(RaceDetail detail) {
    if (!detail.summary().field().array()) return List.of();
    return ReplayTarget.current(detail).map(v -> v.evidence().facts().get("jumbledIndices"))
        .filter(s -> s.matches("\\d+(,\\d+)*"))
        .map(s -> Arrays.stream(s.split(",")).map(Integer::valueOf).toList())
        .orElse(List.of());
  }

  private static String closest(TriageStore store, FieldKey key) {
    List<FieldKey> near = ClosestFields.to(key, store.races().fields(), 3);
    return near.isEmpty() ? "" : " (closest: " + near.stream().map(FieldKey::toString).collect(Collectors.joining(", "))
        + ")";
  }
}
