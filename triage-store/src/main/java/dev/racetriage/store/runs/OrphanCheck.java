package dev.racetriage.store.runs;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Decides whether a RUNNING run has lost its process. On the owner's host the OS is asked (pid alive, and started
 * when the owner did): that is exact, so a live owner keeps its run however long it goes without a heartbeat (a
 * hung process still holds the project lock; calling its run abandoned would hide it). For an owner on another host
 * (a database on a shared drive), or a run that records no owner, only the heartbeat can tell.
 */
final class OrphanCheck {
  private final String localHost;
  private final Duration heartbeatLimit;

  OrphanCheck(String localHost, Duration heartbeatLimit) {
    this.localHost = localHost;
    this.heartbeatLimit = heartbeatLimit;
  }

  /** Why {@code run} is abandoned, as of {@code now}; empty while its owner may still be working on it. */
  Optional<String> whyAbandoned(Run run, Instant now) {
    RunOwner owner = run.owner();
    if (owner != null && localHost.equals(owner.host())) {
      return owner.isAliveHere()
          ? Optional.empty()
          : Optional.of("its process (PID " + owner.pid() + " on host " + owner.host() + ") is gone");
    }
    Instant last = run.lastSignOfLife();
    if (Duration.between(last, now).compareTo(heartbeatLimit) <= 0) {
      return Optional.empty();
    }
    String who = owner == null
        ? "it records no owning process"
        : "its process is PID " + owner.pid() + " on host " + owner.host();
    return Optional.of("no heartbeat since " + last + ", more than " + heartbeatLimit.toMinutes()
        + " min before this check (" + who + ")");
  }
}
