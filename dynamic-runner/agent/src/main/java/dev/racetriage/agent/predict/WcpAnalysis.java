package dev.racetriage.agent.predict;

import dev.racetriage.agent.detect.RaceKind;
import dev.racetriage.agent.hb.Epoch;
import dev.racetriage.agent.hb.VectorClock;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

/**
 * Weak-causally-precedes (WCP; Kini, Mathur, Viswanathan, PLDI 2017), the vector-clock algorithm of the paper's
 * Algorithm 1, run on events in trace order (every method is {@code synchronized}: the monitor is the trace order).
 * It keeps, beside each thread's happens-before clock H(t), its WCP clock P(t); C(t) = P(t)[t := H(t)(t)] times
 * t's events. A critical section's release orders a later section on the same lock only where the two contain
 * conflicting accesses (rule (a)); a release is ordered before a later release of the same lock whose section's
 * acquire it precedes (rule (b)); both compose with happens-before on either side (rule (c)). Two conflicting
 * accesses unordered by WCP are a predictable race (weak soundness: the first such race of a trace is a real race
 * of some correct reordering, or a deadlock); if happens-before orders them, only another schedule exposes it,
 * which is what this class reports, with the lock whose order to flip.
 *
 * <p>Only sections the caller marks <em>transparent</em> — the instrumenter proved that nothing but the accesses
 * this analysis sees happens inside them (straight-line code, no calls) — take part. The others, and every other
 * synchronisation (volatiles, atomics, j.u.c objects, fork and join), are <em>hard</em> edges: rel → acq joins
 * H(rel) into P, as happens-before does. A section that calls JDK code hides its real accesses (a
 * {@code synchronized} block around a {@code HashMap.put} conflicts inside the map), so relaxing it would report
 * races that are not there. Like the h-summary, only the last write of a location is kept: WR and WW races.
 */
public final class WcpAnalysis {
  /** Rule (b)'s log of a lock's transparent sections is cut at this length: the lock then orders as happens-before. */
  static final int LOG_LIMIT = 4096;
  private static final int WITNESSES = 4;

  private ThreadClocks[] threads = new ThreadClocks[8];
  private final ThreadNames names;

  /** Names threads in witnesses. */
  public interface ThreadNames {
    String nameOf(int tid);
  }

  public WcpAnalysis(ThreadNames names) {
    this.names = names;
  }

  /** A monitor, in the analysis. */
  public static final class Lock {
    final String name;
    /** H at every release, joined: what an acquire's happens-before gets. */
    final VectorClock h = new VectorClock();
    /** P at every release, joined (rule (c): what is WCP-before a release is WCP-before a later acquire). */
    final VectorClock p = new VectorClock();
    /** H at every release of an opaque section, joined: a hard edge to every later acquire. */
    final VectorClock opaque = new VectorClock();
    /** Rule (a): per location, H at the releases of transparent sections that read / wrote it. */
    final Map<Location, VectorClock> readers = new HashMap<>();
    final Map<Location, VectorClock> writers = new HashMap<>();
    /** Rule (b): the transparent sections, in order; {@link #cursors} say how far each thread has consumed it. */
    final ArrayList<Section> log = new ArrayList<>();
    int[] cursors = new int[0];
    /** Past {@link #LOG_LIMIT}: every section is opaque from then on. */
    boolean hard;
    int lastReleaser = -1;

    public Lock(String name) {
      this.name = name;
    }
  }

  /** A volatile, atomic or j.u.c object: hard edges only. */
  public static final class Sync {
    final VectorClock h = new VectorClock();
  }

  /** A field of one object, a static field or an array element: its last write. */
  public static final class Location {
    long lastWrite = Epoch.BOTTOM;
    int lastSite = -1;
  }

  /** A predicted race: the access's kind, the earlier write's thread and site, and which order to flip. */
  public record Prediction(RaceKind kind, int writerTid, int writerSite, String witness) {
  }

  private record Section(int owner, VectorClock acquire, VectorClock release) {
  }

  private static final class Held {
    final Lock lock;
    int depth = 1;
    final boolean transparent;
    final VectorClock acquire;
    final ArrayList<Location> reads = new ArrayList<>();
    final ArrayList<Location> writes = new ArrayList<>();

    Held(Lock lock, boolean transparent, VectorClock acquire) {
      this.lock = lock;
      this.transparent = transparent;
      this.acquire = acquire;
    }
  }

  /** A transparent acquire whose happens-before gained what WCP did not: a candidate witness. */
  private record Relaxed(Lock lock, int releaser, VectorClock h) {
  }

  private static final class ThreadClocks {
    final int tid;
    final VectorClock h = new VectorClock();
    final VectorClock p = new VectorClock();
    final ArrayList<Held> held = new ArrayList<>(2);
    final Relaxed[] relaxed = new Relaxed[WITNESSES];
    int relaxedCount;

    ThreadClocks(int tid) {
      this.tid = tid;
      h.set(tid, 1);
    }

    /** C(t) ⊒ k, where C(t) = P(t)[t := H(t)(t)]. */
    boolean wcpCovers(VectorClock k) {
      int width = k.width();
      for (int i = 0; i < width; i++) {
        int v = k.get(i);
        if (v != 0 && v > (i == tid ? h.get(tid) : p.get(i))) {
          return false;
        }
      }
      return true;
    }

    /** C(t) as a clock of its own. */
    VectorClock wcp() {
      VectorClock c = new VectorClock(p);
      c.set(tid, h.get(tid));
      return c;
    }
  }

  private ThreadClocks thread(int tid) {
    if (tid >= threads.length) {
      threads = java.util.Arrays.copyOf(threads, Math.max(tid + 1, threads.length * 2));
    }
    ThreadClocks t = threads[tid];
    if (t == null) {
      t = new ThreadClocks(tid);
      threads[tid] = t;
    }
    return t;
  }

  // ---- hard edges ----

  public synchronized void fork(int parent, int child) {
    ThreadClocks p = thread(parent);
    ThreadClocks c = thread(child);
    c.h.join(p.h);
    c.p.join(p.h);
    p.h.tick(parent);
  }

  /** The joined thread has ended. */
  public synchronized void join(int joiner, int joined) {
    if (joiner == joined) {
      return;
    }
    ThreadClocks j = thread(joined);
    ThreadClocks t = thread(joiner);
    t.h.join(j.h);
    t.p.join(j.h);
    j.h.tick(joined);
  }

  public synchronized void syncRelease(int tid, Sync s) {
    ThreadClocks t = thread(tid);
    s.h.join(t.h);
    t.h.tick(tid);
  }

  public synchronized void syncAcquire(int tid, Sync s) {
    ThreadClocks t = thread(tid);
    t.h.join(s.h);
    t.p.join(s.h);
  }

  // ---- critical sections ----

  /** After the monitor was taken; {@code transparent}: see the class comment. */
  public synchronized void acquire(int tid, Lock l, boolean transparent) {
    ThreadClocks t = thread(tid);
    for (int i = t.held.size() - 1; i >= 0; i--) {
      if (t.held.get(i).lock == l) {
        t.held.get(i).depth++; // re-entry: not a section of its own
        return;
      }
    }
    boolean relaxed = transparent && !l.hard;
    t.h.join(l.h);
    if (relaxed) {
      t.p.join(l.p);
      t.p.join(l.opaque);
      if (l.lastReleaser >= 0 && l.lastReleaser != tid && !t.wcpCovers(l.h)) {
        t.relaxed[t.relaxedCount++ % WITNESSES] = new Relaxed(l, l.lastReleaser, new VectorClock(l.h));
      }
    } else {
      t.p.join(l.h); // hard: as happens-before
    }
    t.held.add(new Held(l, relaxed, relaxed ? t.wcp() : null));
  }

  /** Before the monitor is given back. */
  public synchronized void release(int tid, Lock l) {
    ThreadClocks t = thread(tid);
    int at = -1;
    for (int i = t.held.size() - 1; i >= 0; i--) {
      if (t.held.get(i).lock == l) {
        at = i;
        break;
      }
    }
    if (at < 0) {
      // an acquire the analysis did not see (the agent, or this analysis, started inside the section): a hard edge,
      // as happens-before's, since the accesses of the section's part before are not known
      l.opaque.join(t.h);
      l.h.join(t.h);
      l.p.join(t.p);
      l.lastReleaser = tid;
      t.h.tick(tid);
      return;
    }
    Held s = t.held.get(at);
    if (--s.depth > 0) {
      return;
    }
    t.held.remove(at);
    if (s.transparent && !l.hard) {
      // rule (b): a section whose acquire is WCP-before this release has its release WCP-before it too
      int cursor = tid < l.cursors.length ? l.cursors[tid] : 0;
      while (cursor < l.log.size()) {
        Section earlier = l.log.get(cursor);
        if (earlier.owner != tid) {
          if (!t.wcpCovers(earlier.acquire)) {
            break;
          }
          t.p.join(earlier.release);
        }
        cursor++;
      }
      if (tid >= l.cursors.length) {
        l.cursors = java.util.Arrays.copyOf(l.cursors, tid + 1);
      }
      l.cursors[tid] = cursor;
      // rule (a), for later sections that conflict with this one
      VectorClock now = new VectorClock(t.h);
      for (Location x : s.reads) {
        joinInto(l.readers, x, now);
      }
      for (Location x : s.writes) {
        joinInto(l.writers, x, now);
      }
      if (l.log.size() >= LOG_LIMIT) {
        l.hard = true; // every later acquire joins H of every release (l.h): rule (b) then holds by itself
        l.log.clear();
        l.readers.clear();
        l.writers.clear();
      } else {
        l.log.add(new Section(tid, s.acquire, now));
      }
    } else {
      l.opaque.join(t.h);
    }
    l.h.join(t.h);
    l.p.join(t.p);
    l.lastReleaser = tid;
    t.h.tick(tid);
  }

  private static void joinInto(Map<Location, VectorClock> clocks, Location x, VectorClock now) {
    VectorClock k = clocks.get(x); // no computeIfAbsent: no lambda bootstrapped on a program thread
    if (k == null) {
      clocks.put(x, new VectorClock(now));
    } else {
      k.join(now);
    }
  }

  // ---- accesses ----

  /** A read of x; a prediction if WCP leaves it unordered with x's last write while happens-before orders them. */
  public synchronized Prediction read(int tid, Location x) {
    ThreadClocks t = thread(tid);
    for (int i = 0; i < t.held.size(); i++) {
      Held s = t.held.get(i);
      if (s.transparent && !s.lock.hard) {
        VectorClock w = s.lock.writers.get(x);
        if (w != null) {
          t.p.join(w); // rule (a): the earlier section wrote x
        }
        s.reads.add(x);
      }
    }
    return check(t, x, RaceKind.WR);
  }

  /** A write of x; {@code clinit}: inside a class initialiser, recorded at ⊥ unchecked (as the h-summary does). */
  public synchronized Prediction write(int tid, Location x, int site, boolean clinit) {
    ThreadClocks t = thread(tid);
    for (int i = 0; i < t.held.size(); i++) {
      Held s = t.held.get(i);
      if (s.transparent && !s.lock.hard) {
        VectorClock r = s.lock.readers.get(x);
        VectorClock w = s.lock.writers.get(x);
        if (r != null) {
          t.p.join(r);
        }
        if (w != null) {
          t.p.join(w);
        }
        s.writes.add(x);
      }
    }
    Prediction p = clinit ? null : check(t, x, RaceKind.WW);
    x.lastWrite = clinit ? Epoch.BOTTOM : Epoch.of(tid, t.h.get(tid));
    x.lastSite = site;
    return p;
  }

  private Prediction check(ThreadClocks t, Location x, RaceKind kind) {
    long last = x.lastWrite;
    if (Epoch.isBottom(last)) {
      return null;
    }
    int writer = Epoch.tid(last);
    int clock = Epoch.clock(last);
    if (writer == t.tid || clock <= t.p.get(writer) || clock > t.h.get(writer)) {
      return null; // thread order, WCP-ordered, or a happens-before race (the h-summary reports those)
    }
    return new Prediction(kind, writer, x.lastSite, witness(t, writer, clock));
  }

  /** The earliest remembered relaxed acquire whose happens-before brought the write; else the latest one. */
  private String witness(ThreadClocks t, int writer, int clock) {
    int n = Math.min(t.relaxedCount, WITNESSES);
    Relaxed chosen = null;
    for (int k = 0; k < n; k++) {
      Relaxed r = t.relaxed[(t.relaxedCount - n + k) % WITNESSES];
      if (r.h.get(writer) >= clock) {
        chosen = r;
        break;
      }
    }
    if (chosen == null) {
      return n == 0 ? "critical sections with no conflicting access order the accesses"
          : "flip " + t.relaxed[(t.relaxedCount - 1) % WITNESSES].lock.name
          + " (reached through other threads): critical sections with no conflicting access order the accesses";
    }
    return "flip " + chosen.lock.name + ": " + names.nameOf(chosen.releaser) + " released it before "
        + names.nameOf(t.tid) + " acquired it, and their critical sections have no conflicting access";
  }
}
