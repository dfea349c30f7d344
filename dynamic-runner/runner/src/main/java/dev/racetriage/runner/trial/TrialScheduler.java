package dev.racetriage.runner.trial;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs trial cells on {@code jobs} parallel workers. Each cell runs sequentially under its {@link StoppingRule}
 * (the next run depends on the evidence so far); cells run in parallel. Past the {@code deadline} no new run starts,
 * and the evidence gathered so far stands.
 */
public final class TrialScheduler {
  private final TrialExecutor executor;
  private final StoppingRule rule;
  private final int jobs;
  private final Instant deadline;

  public TrialScheduler(TrialExecutor executor, StoppingRule rule, int jobs, Instant deadline) {
    this.executor = executor;
    this.rule = rule;
    this.jobs = jobs;
    this.deadline = deadline;
  }

  /** Runs every cell; {@code onOutcome} sees each trial as it finishes (from worker threads). */
  public List<TrialOutcome> run(List<TrialCell> cells, Consumer<TrialOutcome> onOutcome) throws InterruptedException {
    List<TrialOutcome> outcomes = Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(jobs, cells.size())), r -> {
      Thread t = new Thread(r, "racetriage-trials");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (TrialCell cell : cells) {
        futures.add(pool.submit(() -> {
          runCell(cell, outcome -> {
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

  private void runCell(TrialCell cell, Consumer<TrialOutcome> sink) throws InterruptedException {
    StoppingRule.Tally tally = StoppingRule.Tally.EMPTY;
    AtomicInteger run = new AtomicInteger();
    while (!rule.done(cell.heuristic(), tally) && (deadline == null || Instant.now().isBefore(deadline))) {
      TrialOutcome outcome = executor.run(cell.spec(run.getAndIncrement()));
      tally = tally.plus(outcome);
      sink.accept(outcome);
    }
  }
}
