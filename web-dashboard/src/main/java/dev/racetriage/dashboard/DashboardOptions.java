package dev.racetriage.dashboard;

import java.time.Duration;

/**
 * How to serve: the address and port ({@code 0} picks a free port), the token that protects changes (null for
 * none; required on a non-loopback bind) and how often live progress polls the store.
 */
public record DashboardOptions(String bind, int port, String token, Duration pollInterval) {
  public static final String DEFAULT_BIND = "127.0.0.1";
  public static final int DEFAULT_PORT = 7070;
  public static final Duration DEFAULT_POLL = Duration.ofSeconds(1);

  public DashboardOptions {
    bind = bind == null || bind.isBlank() ? DEFAULT_BIND : bind.strip();
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port must be in 0..65535, was " + port);
    }
    pollInterval = pollInterval == null ? DEFAULT_POLL : pollInterval;
  }

  public static DashboardOptions defaults() {
    return new DashboardOptions(DEFAULT_BIND, DEFAULT_PORT, null, DEFAULT_POLL);
  }

  public DashboardOptions withPort(int newPort) {
    return new DashboardOptions(bind, newPort, token, pollInterval);
  }

  public DashboardOptions withToken(String newToken) {
    return new DashboardOptions(bind, port, newToken, pollInterval);
  }

  public DashboardOptions withBind(String newBind) {
    return new DashboardOptions(newBind, port, token, pollInterval);
  }

  public DashboardOptions withPollInterval(Duration interval) {
    return new DashboardOptions(bind, port, token, interval);
  }
}
