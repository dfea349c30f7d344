package dev.racetriage.corpus;

import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;
import java.util.TreeMap;

/**
 * The JDK's unsynchronised containers shared safely (issue 22's race-free variants; no row in expected.tsv): a
 * {@code TreeMap} and a {@code HashSet} guarded by a monitor, a {@code HashMap} filled before the workers start and
 * only read by them (published once, then read-only), and per-worker {@code ArrayList}, {@code StringBuilder} and
 * {@code SimpleDateFormat} (confined). The agent must report nothing here.
 */
public class SafeContainers {
  private final Map<Integer, String> ranks = new TreeMap<>();
  private final Set<String> seen = new HashSet<>();
  private final Map<String, Integer> prices = new HashMap<>();

  public SafeContainers() {
    prices.put("tea", 3);
    prices.put("coffee", 4);
  }

  /** One worker's share: {@code n} entries, a day formatted with its own format. */
  public String work(int worker, int n) {
    List<Integer> mine = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    SimpleDateFormat format = new SimpleDateFormat("yyyy-MM-dd");
    format.setTimeZone(TimeZone.getTimeZone("UTC"));
    for (int i = 0; i < n; i++) {
      int key = worker * n + i;
      synchronized (this) {
        ranks.put(key, "r" + key);
        seen.add("s" + key);
      }
      mine.add(key);
      text.append(prices.get("tea")).append(',');
    }
    return mine.size() + ":" + text.length() + ":" + format.format(new Date(0));
  }

  public synchronized int ranked() {
    return ranks.size() + seen.size();
  }
}
