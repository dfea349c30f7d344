package dev.racetriage.runner.project;

/** The project could not be built or read; the message says what failed and what to do. */
public final class ProjectBuildException extends Exception {
  public ProjectBuildException(String message) {
    super(message);
  }

  public ProjectBuildException(String message, Throwable cause) {
    super(message, cause);
  }
}
