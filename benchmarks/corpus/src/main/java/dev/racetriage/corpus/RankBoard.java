package dev.racetriage.corpus;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A leaderboard: players' scores in an unsynchronised {@code TreeMap} sorted by name, case-insensitively, filled by
 * two workers (issue 22: two threads calling {@code TreeMap.put} on the same instance).
 *
 * <p>Racy field: {@code ranks{}} (the map's contents; the field itself is final) — destructive: two puts may both
 * find the same empty child slot and link their entries into it, or both increment the size from the same value,
 * and a player is lost (or counted but not listed).
 */
public class RankBoard {
  private final Map<String, Integer> ranks = new TreeMap<>(RankBoard::byName);

  private static int byName(String a, String b) {
    return a.toLowerCase(Locale.ROOT).compareTo(b.toLowerCase(Locale.ROOT));
  }

  public void rank(String player, int score) {
    ranks.put(player, score);
  }

  public int ranked() {
    return ranks.size();
  }

  public int listed() {
    int n = 0;
    for (String player : ranks.keySet()) {
      n += player.isEmpty() ? 0 : 1;
    }
    return n;
  }
}
