package dev.racetriage.runner.trial;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs trial cells on {@code jobs} parallel workers. The cells of one (field, test) pair form one unit of work, run
 * in one {@link TrialSession} with their heuristics interleaved ({@code sc}, h1, h2, …, {@code sc}, h1, …), so that
 * in a reused JVM the control and the adversarial runs see the same warm-up and the same machine load, and so the
 * {@link StoppingRule} can compare them as they go. Units start in the order given (the caller orders fields by the
 * static prefilter's confidence); once a field is decided, none of its units starts another run. Past the
 * {@code deadline} no new run starts, and the evidence gathered so far stands.
 */
public final class TrialScheduler {
  private final TrialSession.Factory sessions;
  private final StoppingRule rule;
  private final int jobs;
  private final Instant deadline;
  private final AtomicInteger jvms = new AtomicInteger();
  private final List<String> fallbacks = Collections.synchronizedList(new ArrayList<>());

  public TrialScheduler(TrialSession.Factory sessions, StoppingRule rule, int jobs, Instant deadline) {
    this.sessions = sessions;
    this.rule = rule;
    this.jobs = jobs;
    this.deadline = deadline;
  }

  public TrialScheduler(TrialExecutor executor, StoppingRule rule, int jobs, Instant deadline) {
    this(TrialSession.perRun(executor), rule, jobs, deadline);
  }

  /** Test JVMs started by the last {@link #run}. */
  public int jvmsStarted() {
    return jvms.get();
  }

  /** Why (field, test) pairs of the last {@link #run} fell back from a reused JVM to a JVM per run. */
  public List<String> fallbacks() {
    return List.copyOf(fallbacks);
  }

  /** Runs every cell; {@code onOutcome} sees each trial as it finishes (from worker threads). */
  public List<TrialOutcome> run(List<TrialCell> cells, Consumer<TrialOutcome> onOutcome) throws InterruptedException {
    Map<List<String>, List<TrialCell>> units = new LinkedHashMap<>();
    for (TrialCell cell : cells) {
      units.computeIfAbsent(List.of(cell.fieldKey(), cell.testId()), k -> new ArrayList<>()).add(cell);
    }
    List<TrialOutcome> outcomes = Collections.synchronizedList(new ArrayList<>());
    Set<String> decidedFields = ConcurrentHashMap.newKeySet();
    jvms.set(0);
    fallbacks.clear();
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(jobs, units.size())), r -> {
      Thread t = new Thread(r, "racetriage-trials");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (List<TrialCell> unit : units.values()) {
        futures.add(pool.submit(() -> {
          runUnit(unit, decidedFields, outcome -> {
            outcomes.add(outcome);
            onOutcome.accept(outcome);
          });
          return null;
        }));
      }
      for (Future<?> f : futures) {
        try {
          f.get();
        } catch (ExecutionException e) {
          throw new IllegalStateException("a trial worker failed: " + e.getCause(), e.getCause());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    return List.copyOf(outcomes);
  }

  private void runUnit(List<TrialCell> unit, Set<String> decidedFields, Consumer<TrialOutcome> sink)
      throws InterruptedException {
    String field = unit.get(0).fieldKey();
    Map<String, StoppingRule.Tally> tallies = new HashMap<>();
    Map<String, Integer> runNumbers = new HashMap<>();
    try (TrialSession session = sessions.open(field, unit.get(0).testId())) {
      try {
        while (!decidedFields.contains(field) && beforeDeadline()) {
          List<TrialCell> open = unit.stream().filter(c -> !rule.done(c.heuristic(), tallies)).toList();
          // sc is only the control: once every adversarial heuristic is done, it has nothing left to compare with
          if (open.isEmpty() || (unit.size() > 1 && open.stream().allMatch(c -> c.heuristic().equals("sc")))) break;
          for (TrialCell cell : open) {
            if (decidedFields.contains(field) || !beforeDeadline()) break;
            TrialOutcome outcome;
            do { // a control run that timed out is the machine's noise: it is run again at once
              int run = runNumbers.merge(cell.heuristic(), 1, Integer::sum) - 1;
              TrialOutcome o = session.run(cell.spec(run));
              outcome = o;
              tallies.merge(cell.heuristic(), StoppingRule.Tally.EMPTY.plus(o), (a, b) -> a.plus(o));
              sink.accept(o);
              if (rule.fieldDecided(tallies)) decidedFields.add(field);
            } while (outcome.timedOut() && outcome.isControl() && !rule.done(cell.heuristic(), tallies)
                && !decidedFields.contains(field) && beforeDeadline());
          }
        }
      } finally {
        jvms.addAndGet(session.jvmsStarted());
        if (session.fallbackReason() != null) {
          fallbacks.add(field + " with " + unit.get(0).testName() + ": " + session.fallbackReason());
        }
      }
    }
  }

  private boolean beforeDeadline() {
    return deadline == null || Instant.now().isBefore(deadline);
  }
}
