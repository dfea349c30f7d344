package dev.racetriage.corpus;

/**
 * Audit lines appended from two workers to one unsynchronised {@code StringBuilder} (issue 22: a builder shared
 * where a {@code StringBuffer} or a lock was meant).
 *
 * <p>Racy field: {@code text{}} (the builder's contents) — destructive: two appends may both read the same length
 * and write over each other, so a line is lost or cut (or the copy throws when the other grew the array).
 */
public class AuditTrail {
  private final StringBuilder text = new StringBuilder();

  public void log(String line) {
    text.append(line).append('\n');
  }

  public String text() {
    return text.toString();
  }
}
