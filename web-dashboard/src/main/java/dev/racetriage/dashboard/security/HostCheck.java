package dev.racetriage.dashboard.security;

import java.util.Locale;
import java.util.Set;

/**
 * Defeats DNS rebinding against a loopback dashboard: a web page whose domain was re-pointed at 127.0.0.1 would
 * otherwise be same-origin with the dashboard. On a loopback bind only requests addressed to a loopback name are
 * served; on a public bind the token does this job.
 */
public final class HostCheck {
  private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

  private final BindAddress bind;

  public HostCheck(BindAddress bind) {
    this.bind = bind;
  }

  public boolean allows(String hostHeader) {
    if (!bind.loopback()) {
      return true;
    }
    if (hostHeader == null || hostHeader.isBlank()) {
      return false;
    }
    String host = hostName(hostHeader).toLowerCase(Locale.ROOT);
    return LOOPBACK_NAMES.contains(host)
        || host.equalsIgnoreCase(bind.host())
        || host.startsWith("127.") && host.chars().allMatch(c -> c == '.' || Character.isDigit(c));
  }

  /** The host part of a Host header: {@code [::1]:7070} → {@code [::1]}, {@code localhost:7070} → {@code localhost}. */
  static String hostName(String hostHeader) {
    String value = hostHeader.strip();
    if (value.startsWith("[")) {
      int close = value.indexOf(']');
      return close < 0 ? value : value.substring(0, close + 1);
    }
    int colon = value.lastIndexOf(':');
    return colon < 0 ? value : value.substring(0, colon);
  }
}
