package dev.racetriage.dashboard.live;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.sse.SseClient;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Server-sent events for live progress. One poller serves every open page: while at least one client listens it
 * asks the store each {@code interval} for its data version (one PRAGMA, which changes whenever any process commits)
 * and only when that moved reads a {@link Progress} snapshot, pushed as a {@code progress} event if it differs from
 * the last one; a new client gets the current snapshot at once. The daemon is another process writing the same
 * SQLite file, so polling the store (WAL readers never block it) is the way to see its changes.
 */
public final class ProgressFeed implements AutoCloseable {
  public static final String EVENT = "progress";
  private static final Logger LOG = LoggerFactory.getLogger(ProgressFeed.class);
  /** A comment this often lets a proxy keep the connection and lets us notice clients that went away. */
  private static final int HEARTBEAT_POLLS = 15;

  private final Supplier<Progress> reader;
  private final LongSupplier dataVersion;
  private final ObjectMapper json;
  private final Set<SseClient> clients = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService poller;
  private Progress last;
  private long lastVersion;
  private int pollsSinceHeartbeat;

  public ProgressFeed(Supplier<Progress> reader, LongSupplier dataVersion, ObjectMapper json, Duration interval) {
    this.reader = reader;
    this.dataVersion = dataVersion;
    this.json = json;
    this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread thread = new Thread(r, "racetriage-dashboard-progress");
      thread.setDaemon(true);
      return thread;
    });
    poller.scheduleWithFixedDelay(this::poll, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Registers a client (from Javalin's SSE handler) and sends it the current state. */
  public void join(SseClient client) {
    client.keepAlive();
    client.onClose(() -> clients.remove(client));
    clients.add(client);
    poller.execute(() -> {
      Progress now = safeRead();
      if (now != null) {
        send(client, now);
      }
    });
  }

  int clientCount() {
    return clients.size();
  }

  private void poll() {
    if (clients.isEmpty()) {
      last = null;
      return;
    }
    Progress now = changedSinceLastPoll() ? safeRead() : null;
    if (now != null && !Objects.equals(now, last)) {
      last = now;
      clients.forEach(client -> send(client, now));
      pollsSinceHeartbeat = 0;
    } else if (++pollsSinceHeartbeat >= HEARTBEAT_POLLS) {
      pollsSinceHeartbeat = 0;
      clients.forEach(client -> client.sendComment("still here"));
    }
  }

  /** True on the first poll after clients arrived, and whenever some process committed since the last poll. */
  private boolean changedSinceLastPoll() {
    try {
      long version = dataVersion.getAsLong();
      boolean changed = last == null || version != lastVersion;
      lastVersion = version;
      return changed;
    } catch (RuntimeException e) {
      LOG.warn("cannot read the triage database's data version: {}", e.getMessage());
      return false;
    }
  }

  private Progress safeRead() {
    try {
      return reader.get();
    } catch (RuntimeException e) {
      // A busy or briefly unreadable database must not kill the poller; the next poll tries again.
      LOG.warn("cannot read daemon progress: {}", e.getMessage());
      return null;
    }
  }

  private void send(SseClient client, Progress progress) {
    if (client.terminated()) {
      clients.remove(client);
      return;
    }
    try {
      client.sendEvent(EVENT, json.writeValueAsString(progress));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write progress as JSON", e);
    }
  }

  @Override
  public void close() {
    poller.shutdownNow();
    clients.forEach(SseClient::close);
    clients.clear();
  }
}
