package dev.racetriage.dashboard.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Slows down guessing the dashboard token, per client address. An address may send a wrong token
 * {@link #FREE_FAILURES} times; that failure and each later one lock it out, for {@link #FIRST_LOCKOUT} and then
 * twice as long each time up to {@link #MAX_LOCKOUT}. While locked out, every token it sends — the right one too —
 * is refused unread, so the lockout cannot be used as an oracle, and the refusal does not lengthen it (a teammate
 * who keeps reloading is not punished further). The right token, or {@link #FORGET_AFTER} without a wrong one,
 * clears the address.
 *
 * <p>The address is the TCP peer's: behind a reverse proxy every client shares the proxy's address, so one
 * guesser locks everyone out — which is still better than letting it guess. Forwarded-for headers are not trusted;
 * any client could set them. The map is bounded (least recently seen address dropped first).
 */
public final class LoginThrottle {
  static final int FREE_FAILURES = 5;
  static final Duration FIRST_LOCKOUT = Duration.ofSeconds(1);
  static final Duration MAX_LOCKOUT = Duration.ofMinutes(15);
  static final Duration FORGET_AFTER = Duration.ofHours(1);
  static final int MAX_CLIENTS = 10_000;

  /** Wrong tokens since the address last got it right (or went quiet), and until when it is locked out. */
  private record Failures(int count, Instant lastFailure, Instant lockedUntil) {}

  private final Clock clock;
  private final Map<String, Failures> clients = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Failures> eldest) {
      return size() > MAX_CLIENTS;
    }
  };

  public LoginThrottle(Clock clock) {
    this.clock = clock;
  }

  /** How much longer {@code client} must wait before its next token is looked at; empty if it need not. */
  public synchronized Optional<Duration> lockedOut(String client) {
    Failures failures = current(client);
    if (failures == null || failures.lockedUntil() == null) {
      return Optional.empty();
    }
    Duration left = Duration.between(clock.instant(), failures.lockedUntil());
    return left.isNegative() || left.isZero() ? Optional.empty() : Optional.of(left);
  }

  public synchronized void failed(String client) {
    Failures before = current(client);
    int count = before == null ? 1 : before.count() + 1;
    Instant now = clock.instant();
    clients.put(client, new Failures(count, now, count < FREE_FAILURES ? null : now.plus(lockout(count))));
  }

  public synchronized void succeeded(String client) {
    clients.remove(client);
  }

  /** 1 s at the {@link #FREE_FAILURES}th failure, doubling with each further one, at most {@link #MAX_LOCKOUT}. */
  static Duration lockout(int failures) {
    int doublings = failures - FREE_FAILURES;
    if (doublings >= Long.SIZE - 2) {
      return MAX_LOCKOUT;
    }
    Duration lockout = FIRST_LOCKOUT.multipliedBy(1L << doublings);
    return lockout.compareTo(MAX_LOCKOUT) > 0 ? MAX_LOCKOUT : lockout;
  }

  /** The address's failures, or null once it has been quiet for {@link #FORGET_AFTER}. */
  private Failures current(String client) {
    Failures failures = clients.get(client);
    if (failures != null
        && Duration.between(failures.lastFailure(), clock.instant()).compareTo(FORGET_AFTER) > 0) {
      clients.remove(client);
      return null;
    }
    return failures;
  }
}
