package dev.racetriage.dashboard.live;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.sse.SseClient;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
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
 * and only when that moved reads a {@link Progress} snapshot, pushed as a {@code progress} event to each client
 * whose last event differs from it; a new client gets the current snapshot at once. Every send happens on the
 * poller thread and each client remembers what it was sent last, so no client sees the same snapshot twice in a row
 * (a page can treat every event as a change). The daemon is another process writing the same SQLite file, so
 * polling the store (WAL readers never block it) is the way to see its changes.
 */
public final class ProgressFeed implements AutoCloseable {
  public static final String EVENT = "progress";
  private static final Logger LOG = LoggerFactory.getLogger(ProgressFeed.class);
  /** A comment this often lets a proxy keep the connection and lets us notice clients that went away. */
  private static final int HEARTBEAT_POLLS = 15;

  private final Supplier<Progress> reader;
  private final LongSupplier dataVersion;
  private final ObjectMapper json;
  /** Each open client and the snapshot it was sent last; that snapshot is touched only on the poller thread. */
  private final Map<SseClient, Listener> clients = new ConcurrentHashMap<>();
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
    Listener listener = new Listener(client);
    client.onClose(() -> clients.remove(client));
    clients.put(client, listener);
    poller.execute(() -> {
      Progress now = safeRead();
      // a poll that ran between the registration and this task may have sent it the same snapshot already
      if (now != null && !Objects.equals(now, listener.lastSent)) {
        send(listener, now);
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
    if (now != null) {
      last = now;
    }
    boolean sent = false;
    if (last != null) {
      for (Listener listener : clients.values()) {
        if (!Objects.equals(last, listener.lastSent)) {
          send(listener, last);
          sent = true;
        }
      }
    }
    if (sent) {
      pollsSinceHeartbeat = 0;
    } else if (++pollsSinceHeartbeat >= HEARTBEAT_POLLS) {
      pollsSinceHeartbeat = 0;
      clients.keySet().forEach(client -> client.sendComment("still here"));
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

  private void send(Listener listener, Progress progress) {
    SseClient client = listener.client;
    if (client.terminated()) {
      clients.remove(client);
      return;
    }
    try {
      client.sendEvent(EVENT, json.writeValueAsString(progress));
      listener.lastSent = progress;
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write progress as JSON", e);
    }
  }

  private static final class Listener {
    final SseClient client;
    Progress lastSent;

    Listener(SseClient client) {
      this.client = client;
    }
  }

  @Override
  public void close() {
    poller.shutdownNow();
    clients.keySet().forEach(SseClient::close);
    clients.clear();
  }
}
