package dev.racetriage.dashboard.security;

/**
 * A browser's session: its cookie id, the CSRF token its pages must echo in {@code X-CSRF-Token} on every
 * mutation, and whether it has proven knowledge of the dashboard token.
 */
public record Session(String id, String csrfToken, boolean authenticated) {
  public Session authenticate() {
    return new Session(id, csrfToken, true);
  }
}
