package dev.racetriage.dashboard;

/** The dashboard cannot start; the message says why and what to do (another port, a token, another address). */
public final class DashboardStartException extends RuntimeException {
  public DashboardStartException(String message, Throwable cause) {
    super(message, cause);
  }
}
