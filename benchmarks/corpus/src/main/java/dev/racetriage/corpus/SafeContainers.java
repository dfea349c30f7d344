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
 * The JDK's unsynchronised containers shared safely (issue 22's race-free variants; no row in expected.tsv), each
 * of {@code HashMap}, {@code ArrayList}, {@code TreeMap}, {@code StringBuilder} and {@code SimpleDateFormat} in
 * every safe shape that applies to it:
 * <ul>
 *   <li>synchronised: {@code ranks} (a {@code TreeMap}), {@code seen} (a {@code HashSet}), {@code totals} (a
 *       {@code HashMap}), {@code order} (an {@code ArrayList}) and {@code journal} (a {@code StringBuilder}) under
 *       this object's monitor, {@code stampFormat} (a {@code SimpleDateFormat}) under its own;
 *   <li>published once, then read-only: {@code prices} (a {@code HashMap}), {@code menu} (an {@code ArrayList}),
 *       {@code sizes} (a {@code TreeMap}) and {@code header} (a {@code StringBuilder}), filled in the constructor
 *       before the workers start (a {@code SimpleDateFormat} has no read-only use: {@code format} writes its
 *       calendar);
 *   <li>confined: each worker's own {@code HashMap}, {@code TreeMap}, {@code ArrayList}, {@code StringBuilder} and
 *       {@code SimpleDateFormat}.
 * </ul>
 * The agent must report nothing here, and the prefilter list no {@code {}} candidate.
 */
public class SafeContainers {
  private final Map<Integer, String> ranks = new TreeMap<>();
  private final Set<String> seen = new HashSet<>();
  private final Map<Integer, Integer> totals = new HashMap<>();
  private final List<Integer> order = new ArrayList<>();
  private final StringBuilder journal = new StringBuilder();
  private final SimpleDateFormat stampFormat = new SimpleDateFormat("yyyy-MM-dd");
  private final Map<String, Integer> prices = new HashMap<>();
  private final List<String> menu = new ArrayList<>();
  private final TreeMap<String, Integer> sizes = new TreeMap<>();
  private final StringBuilder header = new StringBuilder();

  public SafeContainers() {
    prices.put("tea", 3);
    prices.put("coffee", 4);
    menu.add("tea");
    menu.add("coffee");
    sizes.put("small", 1);
    sizes.put("large", 2);
    header.append("day");
    stampFormat.setTimeZone(TimeZone.getTimeZone("UTC"));
  }

  /** One worker's share: {@code n} entries, a day formatted with its own format and with the shared one. */
  public String work(int worker, int n) {
    List<Integer> mine = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    Map<Integer, Integer> myTotals = new HashMap<>();
    TreeMap<Integer, Integer> mySizes = new TreeMap<>();
    SimpleDateFormat format = new SimpleDateFormat("yyyy-MM-dd");
    format.setTimeZone(TimeZone.getTimeZone("UTC"));
    for (int i = 0; i < n; i++) {
      int key = worker * n + i;
      synchronized (this) {
        ranks.put(key, "r" + key);
        seen.add("s" + key);
        totals.merge(key % 5, 1, Integer::sum);
        order.add(key);
        journal.append(key).append(',');
      }
      mine.add(key);
      myTotals.merge(key % 5, 1, Integer::sum);
      mySizes.put(key, sizes.get(menu.get(i % 2).equals("tea") ? "small" : "large"));
      text.append(prices.get("tea")).append(',');
    }
    String shared;
    synchronized (stampFormat) {
      shared = stampFormat.format(new Date(0));
    }
    return mine.size() + ":" + text.length() + ":" + myTotals.size() + ":" + mySizes.size() + ":" + header + ":"
        + format.format(new Date(0)) + ":" + shared;
  }

  public synchronized int ranked() {
    return ranks.size() + seen.size() + order.size() + totals.values().stream().mapToInt(Integer::intValue).sum()
        + (journal.length() > 0 ? 0 : -1);
  }
}
