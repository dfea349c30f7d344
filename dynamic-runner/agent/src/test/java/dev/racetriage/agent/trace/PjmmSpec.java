package dev.racetriage.agent.trace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Operational PJMM of JUMBLE Figure 6 written out naively for tests, sharing no code with the agent: plain
 * {@code int[]} clocks, unbounded write histories (no GC at all), and the READ rule evaluated literally. Whatever the
 * agent's compressed write buffers serve must be allowed here. Writes in a class initialiser are stamped ⊥ (they happen
 * before every use of the class).
 */
final class PjmmSpec {
    record Entry(long value, int[] stamp) {
    }

    private static final int WIDTH = 64;
    private final Map<Integer, int[]> threads = new HashMap<>();
    private final Map<Integer, int[]> locks = new HashMap<>();
    private final Map<Integer, List<Entry>> buffers = new HashMap<>();

    private int[] c(int t) {
        return threads.computeIfAbsent(t, k -> {
            int[] clock = new int[WIDTH];
            clock[k] = 1; // inc_t(⊥)
            return clock;
        });
    }

    private int[] l(int m) {
        return locks.computeIfAbsent(m, k -> new int[WIDTH]);
    }

    private List<Entry> w(int x) {
        return buffers.computeIfAbsent(x, k -> new ArrayList<>(List.of(new Entry(0, new int[WIDTH]))));
    }

    private static void joinInto(int[] into, int[] from) {
        for (int i = 0; i < WIDTH; i++) {
            into[i] = Math.max(into[i], from[i]);
        }
    }

    private static boolean leq(int[] a, int[] b) {
        for (int i = 0; i < WIDTH; i++) {
            if (a[i] > b[i]) {
                return false;
            }
        }
        return true;
    }

    void apply(Event e) {
        if (e instanceof Event.Acquire a) {
            joinInto(c(a.thread()), l(a.sync()));
        } else if (e instanceof Event.VolatileRead a) {
            joinInto(c(a.thread()), l(a.sync()));
        } else if (e instanceof Event.Release r) {
            joinInto(l(r.sync()), c(r.thread()));
            c(r.thread())[r.thread()]++;
        } else if (e instanceof Event.VolatileWrite r) {
            joinInto(l(r.sync()), c(r.thread()));
            c(r.thread())[r.thread()]++;
        } else if (e instanceof Event.Fork f) {
            joinInto(c(f.child()), c(f.thread()));
            c(f.thread())[f.thread()]++;
        } else if (e instanceof Event.Join j) {
            joinInto(c(j.thread()), c(j.joined()));
            c(j.joined())[j.joined()]++;
        } else if (e instanceof Event.Write wr) {
            w(wr.location()).add(new Entry(wr.value(), c(wr.thread()).clone()));
        } else if (e instanceof Event.ClinitWrite cw) {
            c(cw.thread());
            w(cw.location()).add(new Entry(cw.value(), new int[WIDTH]));
        }
    }

    /** [READ]: the entries of W(x) a read by t may return now. */
    List<Entry> visible(int t, int x) {
        List<Entry> all = w(x);
        int[] ct = c(t);
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            boolean hidden = false;
            for (int j = i + 1; j < all.size() && !hidden; j++) {
                hidden = leq(all.get(i).stamp(), all.get(j).stamp()) && leq(all.get(j).stamp(), ct);
            }
            if (!hidden) {
                out.add(all.get(i));
            }
        }
        return out;
    }

    long latest(int x) {
        List<Entry> all = w(x);
        return all.get(all.size() - 1).value();
    }
}
