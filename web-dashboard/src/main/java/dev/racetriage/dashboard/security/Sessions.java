package dev.racetriage.dashboard.security;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Sessions held in memory (a restart logs everyone out, which is fine for a team tool). Both maps are bounded so
 * that clients cannot grow them without limit, dropping the least recently used session first; anonymous and
 * logged-in sessions are kept apart so that a flood of anonymous ones (anyone may open a page) never evicts a
 * teammate's login.
 */
public final class Sessions {
  static final int MAX_ANONYMOUS = 2_000;
  static final int MAX_AUTHENTICATED = 500;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Map<String, Session> anonymous = bounded(MAX_ANONYMOUS);
  private final Map<String, Session> authenticated = bounded(MAX_AUTHENTICATED);

  public synchronized Optional<Session> find(String id) {
    if (id == null) {
      return Optional.empty();
    }
    Session session = authenticated.get(id);
    return Optional.ofNullable(session != null ? session : anonymous.get(id));
  }

  public synchronized Session create() {
    Session session = new Session(randomToken(), randomToken(), false);
    anonymous.put(session.id(), session);
    return session;
  }

  /** Replaces the session by an authenticated one with a new id, so a cookie planted before login is useless. */
  public synchronized Session authenticate(Optional<Session> previous) {
    previous.ifPresent(old -> {
      anonymous.remove(old.id());
      authenticated.remove(old.id());
    });
    Session session = new Session(randomToken(), randomToken(), true);
    authenticated.put(session.id(), session);
    return session;
  }

  private static Map<String, Session> bounded(int max) {
    return new LinkedHashMap<>(64, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Session> eldest) {
        return size() > max;
      }
    };
  }

  static String randomToken() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
