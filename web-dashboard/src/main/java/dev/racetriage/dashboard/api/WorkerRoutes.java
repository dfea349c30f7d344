package dev.racetriage.dashboard.api;

import dev.racetriage.store.TriageStore;
import dev.racetriage.store.queue.TrialItem;
import dev.racetriage.store.queue.TrialItemState;
import dev.racetriage.store.workers.WorkerRecord;
import dev.racetriage.store.workers.WorkerRepository;
import io.javalin.Javalin;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code GET /api/workers[?run=ID]}: the worker processes that run planned trials from the shared queue, and the
 * queue — its units per state and those claimed now — of every run or of run {@code ID}. A worker is {@code alive}
 * while it has reported within {@link WorkerRepository#PRESUMED_DEAD} and has not stopped, {@code stale} when it has
 * not reported for longer (a killed process or a lost machine: its claims come back to the queue when their leases run
 * out), {@code stopped} or {@code failed} as it said itself.
 */
public final class WorkerRoutes {
  /** Claimed units listed at most: one per worker is the usual, a hundred is a big team. */
  static final int CLAIMED_SHOWN = 100;

  private final TriageStore store;
  private final Clock clock;

  public WorkerRoutes(TriageStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  public void install(Javalin app) {
    app.get("/api/workers", this::workers);
  }

  /** The workers, most recently heard from first, how many are alive, the rule, and the queue. */
  public record Workers(List<WorkerRow> workers, long alive, long presumedDeadAfterSeconds, QueueView queue) {}

  /**
   * A worker: {@code state} as it reported it (BUILDING, IDLE, WORKING, STOPPED, FAILED), {@code status} what the
   * dashboard makes of it ({@code alive}, {@code stale}, {@code stopped}, {@code failed}), {@code secondsSinceHeartbeat}
   * by the dashboard's clock.
   */
  public record WorkerRow(String id, String host, long pid, String commit, String fingerprint, String state,
      String status, Instant startedAt, Instant heartbeatAt, long secondsSinceHeartbeat, int itemsDone, int trialsDone,
      String message) {}

  /** {@code runId}: the run asked for, null for every run; {@code counts} per state (every state present). */
  public record QueueView(Long runId, Map<String, Long> counts, List<ClaimedUnit> claimed) {}

  /** A unit of trials (a race's trials with one test) a worker holds now, until {@code leaseUntil}. */
  public record ClaimedUnit(long id, long runId, String field, String test, String claimedBy, Instant claimedAt,
      Instant leaseUntil, int attempts) {}

  private void workers(Context ctx) {
    Long runId = runParam(ctx.queryParam("run"));
    Instant now = clock.instant();
    List<WorkerRow> workers = store.workers().list().stream().map(w -> row(w, now)).toList();
    Map<String, Long> counts = new LinkedHashMap<>();
    store.trialQueue().counts(runId).forEach((state, n) -> counts.put(label(state), n));
    List<ClaimedUnit> claimed = store.trialQueue().list(runId, CLAIMED_SHOWN).stream()
        .filter(item -> item.state() == TrialItemState.CLAIMED).map(WorkerRoutes::claimed).toList();
    ctx.json(new Workers(workers, workers.stream().filter(w -> w.status().equals("alive")).count(),
        WorkerRepository.PRESUMED_DEAD.toSeconds(), new QueueView(runId, counts, claimed)));
  }

  static WorkerRow row(WorkerRecord w, Instant now) {
    String status = switch (w.state()) {
      case "STOPPED" -> "stopped";
      case "FAILED" -> "failed";
      default -> w.alive(now, WorkerRepository.PRESUMED_DEAD) ? "alive" : "stale";
    };
    return new WorkerRow(w.id(), w.host(), w.pid(), w.commit(), w.fingerprint(), w.state(), status, w.startedAt(),
        w.heartbeatAt(), Math.max(0, Duration.between(w.heartbeatAt(), now).toSeconds()), w.itemsDone(),
        w.trialsDone(), w.message());
  }

  private static ClaimedUnit claimed(TrialItem item) {
    return new ClaimedUnit(item.id(), item.runId(), item.fieldKey(), item.testName(), item.claimedBy(),
        item.claimedAt(), item.leaseUntil(), item.attempts());
  }

  private static String label(TrialItemState state) {
    return state.name().toLowerCase(Locale.ROOT);
  }

  private static Long runParam(String value) {
    if (value == null || value.isBlank()) return null;
    try {
      return Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      throw new BadRequestResponse("run must be a run's number (as /api/overview lists them), was '" + value + "'");
    }
  }
}
