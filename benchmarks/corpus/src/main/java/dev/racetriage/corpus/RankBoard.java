package dev.racetriage.corpus;

import java.util.Map;
import java.util.TreeMap;

/**
 * Scores ranked in an unsynchronised {@code TreeMap} by two workers (issue 22: two threads calling
 * {@code TreeMap.put} on the same instance).
 *
 * <p>Racy field: {@code ranks{}} (the map's contents; the field itself is final) — destructive: two puts may both
 * link a new entry under the same parent, or both increment the size from the same value, and one score is lost.
 */
public class RankBoard {
  private final Map<Integer, String> ranks = new TreeMap<>();

  public void rank(int score, String name) {
    ranks.put(score, name);
  }

  public int ranked() {
    return ranks.size();
  }
}
