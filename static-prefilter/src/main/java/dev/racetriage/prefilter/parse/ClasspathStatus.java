package dev.racetriage.prefilter.parse;

/** Where the library classpath came from; anything but a full classpath lowers the confidence of candidates. */
public enum ClasspathStatus {
  /** Resolved by Maven ({@code dependency:build-classpath}). */
  MAVEN,
  /** Given by the caller (e.g. an editor that knows the project's classpath). */
  GIVEN,
  /** None: only the JDK and the project's own sources resolve; library types stay unresolved. */
  NONE;

  public boolean isComplete() {
    return this != NONE;
  }
}
