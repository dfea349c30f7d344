package dev.racetriage.dashboard.security;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Sessions held in memory (a restart logs everyone out, which is fine for a team tool). The map is bounded so that
 * unauthenticated clients cannot grow it without limit; the least recently used session is dropped first.
 */
public final class Sessions {
  static final int MAX_SESSIONS = 2_000;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Map<String, Session> byId =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Session> eldest) {
          return size() > MAX_SESSIONS;
        }
      };

  public synchronized Optional<Session> find(String id) {
    return id == null ? Optional.empty() : Optional.ofNullable(byId.get(id));
  }

  public synchronized Session create() {
    Session session = new Session(randomToken(), randomToken(), false);
    byId.put(session.id(), session);
    return session;
  }

  /** Replaces the session by an authenticated one with a new id, so a cookie planted before login is useless. */
  public synchronized Session authenticate(Optional<Session> previous) {
    previous.ifPresent(old -> byId.remove(old.id()));
    Session session = new Session(randomToken(), randomToken(), true);
    byId.put(session.id(), session);
    return session;
  }

  static String randomToken() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
