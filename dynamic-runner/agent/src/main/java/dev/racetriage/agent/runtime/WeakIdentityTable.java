package dev.racetriage.agent.runtime;

import jdk.internal.vm.annotation.DontInline;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.function.Function;

/**
 * Object → value by identity, holding keys weakly: the shadow memory of program objects, which must neither keep
 * them alive nor confuse an object with a later one that reuses its identity hash.
 *
 * <p>Reads take no lock: a racy read sees either an older chain or a newer one, never an incomplete entry (its key,
 * hash and value are final; an entry is published by the segment's volatile table write). Writes lock one of 64
 * segments and relink entries in place: an expunge unlinks the cleared entry (its own link still leads on), a resize
 * moves each live entry into the new table. A reader that a concurrent relink leads off its chain misses, and a miss is
 * repeated under the segment's monitor. Entries are never copied, so each key has one weak reference for its lifetime
 * (copies used to double the references the collector discovers, and left the originals that callers cache to be
 * enqueued and polled a second time). Cleared keys are expunged on later inserts. Deliberately not a {@code java.util.concurrent} map: the agent's
 * hooks run inside j.u.c code and must not re-enter it.
 */
final class WeakIdentityTable<V> {
  private static final int SEGMENTS = 64;

  /** One mapping; also what callers may cache, since it holds the key only weakly. */
  static final class Entry<V> extends WeakReference<Object> {
    final int hash;
    final V value;
    /** The chain's next entry: written only under the segment's monitor (see the class comment). */
    Entry<V> next;

    Entry(Object key, int hash, V value, Entry<V> next, ReferenceQueue<Object> queue) {
      super(key, queue);
      this.hash = hash;
      this.value = value;
      this.next = next;
    }
  }

  private static final class Segment<V> {
    volatile Entry<V>[] table = newTable(16);
    int count;
  }

  private final Segment<V>[] segments;
  private final ReferenceQueue<Object> queue = new ReferenceQueue<>();

  @SuppressWarnings("unchecked")
  WeakIdentityTable() {
    segments = new Segment[SEGMENTS];
    for (int i = 0; i < SEGMENTS; i++) {
      segments[i] = new Segment<>();
    }
  }

  /** The value for {@code key}, or null. */
  V get(Object key) {
    Entry<V> e = find(key, spread(System.identityHashCode(key)));
    return e == null ? null : e.value;
  }

  /** The entry for {@code key}, or null; never creates one. */
  Entry<V> peekEntry(Object key) {
    return find(key, spread(System.identityHashCode(key)));
  }

  private Entry<V> find(Object key, int hash) {
    Entry<V>[] table = segments[hash & (SEGMENTS - 1)].table;
    for (Entry<V> e = table[(hash >>> 6) & (table.length - 1)]; e != null; e = e.next) {
      if (e.hash == hash && e.refersTo(key)) {
        return e;
      }
    }
    return null;
  }

  /** The value for {@code key}, created once by {@code create} (called under a segment monitor: keep it cheap). */
  V getOrCreate(Object key, Function<Object, V> create) {
    return entry(key, create).value;
  }

  /** The entry for {@code key}, created once by {@code create}; {@code entry.get() == key} while key lives. */
  Entry<V> entry(Object key, Function<Object, V> create) {
    int hash = spread(System.identityHashCode(key));
    Entry<V> found = find(key, hash);
    return found != null ? found : insert(key, hash, create);
  }

  @DontInline // the insert path: compiled once, not into every caller of entry (see Hooks)
  private Entry<V> insert(Object key, int hash, Function<Object, V> create) {
    Segment<V> segment = segments[hash & (SEGMENTS - 1)];
    expungeStale();
    synchronized (segment) {
      Entry<V>[] table = segment.table;
      int index = (hash >>> 6) & (table.length - 1);
      for (Entry<V> e = table[index]; e != null; e = e.next) {
        if (e.hash == hash && e.refersTo(key)) {
          return e;
        }
      }
      V value = create.apply(key);
      if (segment.count + 1 > table.length * 3 / 4) {
        table = resize(segment, table);
        index = (hash >>> 6) & (table.length - 1);
      }
      Entry<V> created = new Entry<>(key, hash, value, table[index], queue);
      table[index] = created;
      segment.count++;
      segment.table = table; // volatile write publishes the new head
      return created;
    }
  }

  /** Number of live-or-not-yet-expunged entries (tests and diagnostics). */
  int size() {
    int total = 0;
    for (Segment<V> segment : segments) {
      synchronized (segment) {
        total += segment.count;
      }
    }
    return total;
  }

  /**
   * Moves the live entries of {@code old} into a table twice as long (the caller publishes it), dropping cleared ones
   * (their queued references are then not found by {@link #expungeStale}, which is harmless).
   */
  private Entry<V>[] resize(Segment<V> segment, Entry<V>[] old) {
    Entry<V>[] table = newTable(old.length * 2);
    int live = 0;
    for (Entry<V> head : old) {
      Entry<V> e = head;
      while (e != null) {
        Entry<V> following = e.next;
        if (!e.refersTo(null)) {
          int index = (e.hash >>> 6) & (table.length - 1);
          e.next = table[index];
          table[index] = e;
          live++;
        }
        e = following;
      }
    }
    segment.count = live;
    return table;
  }

  /** Removes entries whose key was collected. Takes one segment monitor at a time, never nested. */
  private void expungeStale() {
    for (int i = 0; i < 32; i++) {
      Reference<?> ref = queue.poll();
      if (ref == null) {
        return;
      }
      @SuppressWarnings("unchecked")
      Entry<V> stale = (Entry<V>) ref;
      Segment<V> segment = segments[stale.hash & (SEGMENTS - 1)];
      synchronized (segment) {
        Entry<V>[] table = segment.table;
        int index = (stale.hash >>> 6) & (table.length - 1);
        Entry<V> previous = null;
        for (Entry<V> e = table[index]; e != null; previous = e, e = e.next) {
          if (e == stale) {
            if (previous == null) {
              table[index] = e.next;
            } else {
              previous.next = e.next;
            }
            segment.count--;
            segment.table = table; // volatile write: publishes the unlink
            break;
          }
        }
      }
    }
  }

  private static int spread(int h) {
    return h ^ (h >>> 16);
  }

  @SuppressWarnings("unchecked")
  private static <V> Entry<V>[] newTable(int size) {
    return (Entry<V>[]) new Entry[size];
  }
}
