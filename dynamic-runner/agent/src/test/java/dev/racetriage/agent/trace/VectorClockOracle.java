package dev.racetriage.agent.trace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The property tests' ground truth on traces: which locations really race (vector clocks, not the h-summary). */
final class VectorClockOracle {
  private VectorClockOracle() {
  }

  /**
   * Locations with two accesses by different threads, one a write, neither happening before the other: vector clocks
   * per thread and synchronisation object (release joins and ticks, acquire joins, fork and join transfer); a New
   * counts as a write by its creator, a ClinitWrite happens before everything.
   */
  static Set<Integer> racingLocations(Trace trace) {
    Map<Integer, int[]> clocks = new HashMap<>();
    Map<Integer, int[]> syncs = new HashMap<>();
    List<int[]> accesses = new ArrayList<>(); // {thread, location, write, epoch-clock}
    List<int[]> clocksAt = new ArrayList<>();
    for (Event e : trace.events()) {
      int t = e.thread();
      int[] c = clock(clocks, t);
      if (e instanceof Event.Read r) {
        accesses.add(new int[] {t, r.location(), 0, c[t]});
        clocksAt.add(c.clone());
      } else if (e instanceof Event.Write w) {
        accesses.add(new int[] {t, w.location(), 1, c[t]});
        clocksAt.add(c.clone());
      } else if (e instanceof Event.New nw) {
        for (int x = nw.firstLocation(); x < nw.firstLocation() + nw.count(); x++) {
          accesses.add(new int[] {t, x, 1, c[t]});
          clocksAt.add(c.clone());
        }
      } else if (e instanceof Event.Acquire a) {
        join(c, syncs.get(a.sync()));
      } else if (e instanceof Event.VolatileRead a) {
        join(c, syncs.get(a.sync()));
      } else if (e instanceof Event.Release r) {
        syncs.put(r.sync(), joined(syncs.get(r.sync()), c));
        c[t]++;
      } else if (e instanceof Event.VolatileWrite r) {
        syncs.put(r.sync(), joined(syncs.get(r.sync()), c));
        c[t]++;
      } else if (e instanceof Event.Fork f) {
        int[] child = clock(clocks, f.child());
        join(child, c);
        c[t]++;
      } else if (e instanceof Event.Join j) {
        join(c, clock(clocks, j.joined()));
      }
    }
    Set<Integer> racing = new TreeSet<>();
    for (int i = 0; i < accesses.size(); i++) {
      for (int k = i + 1; k < accesses.size(); k++) {
        int[] a = accesses.get(i);
        int[] b = accesses.get(k);
        boolean ordered = a[3] <= clocksAt.get(k)[a[0]];
        if (a[1] == b[1] && a[0] != b[0] && (a[2] == 1 || b[2] == 1) && !ordered) {
          racing.add(a[1]);
        }
      }
    }
    return racing;
  }

  private static final int THREADS = 64;

  private static int[] clock(Map<Integer, int[]> clocks, int t) {
    return clocks.computeIfAbsent(t, k -> {
      int[] c = new int[THREADS];
      c[k] = 1;
      return c;
    });
  }

  private static void join(int[] into, int[] from) {
    if (from != null) {
      for (int i = 0; i < into.length; i++) {
        into[i] = Math.max(into[i], from[i]);
      }
    }
  }

  private static int[] joined(int[] a, int[] b) {
    int[] r = a == null ? new int[THREADS] : a.clone();
    join(r, b);
    return r;
  }
}
