package dev.racetriage.dashboard.source;

/** A request named a file the dashboard must not show: outside the project, hidden, not a source file. */
public final class SourceAccessDenied extends RuntimeException {
  public SourceAccessDenied(String message) {
    super(message);
  }
}
