package dev.racetriage.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WeakIdentityTableTest {

  @Test
  void keysAreComparedByIdentityNotEquality() {
    WeakIdentityTable<Object> table = new WeakIdentityTable<>();
    String a = new String("same");
    String b = new String("same");
    Object va = table.getOrCreate(a, k -> new Object());
    Object vb = table.getOrCreate(b, k -> new Object());
    assertNotSame(va, vb);
    assertSame(va, table.getOrCreate(a, k -> new Object()));
    assertSame(vb, table.get(b));
    assertNull(table.get(new String("same")));
  }

  @Test
  void manyKeysSurviveResizingAndKeepTheirValues() {
    WeakIdentityTable<Integer> table = new WeakIdentityTable<>();
    List<Object> keys = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      Object key = new Object();
      keys.add(key);
      int value = i;
      table.getOrCreate(key, k -> value);
    }
    for (int i = 0; i < keys.size(); i++) {
      assertEquals(i, table.get(keys.get(i)));
    }
    assertEquals(20_000, table.size());
  }

  @Test
  void concurrentCreatorsAgreeOnOneValuePerKey() throws InterruptedException {
    WeakIdentityTable<Object> table = new WeakIdentityTable<>();
    Object[] keys = new Object[500];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = new Object();
    }
    Object[][] seen = new Object[4][keys.length];
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int index = t;
      Thread thread = new Thread(() -> {
        for (int i = 0; i < keys.length; i++) {
          seen[index][i] = table.getOrCreate(keys[i], k -> new Object());
        }
      });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    for (int i = 0; i < keys.length; i++) {
      for (int t = 1; t < 4; t++) {
        assertSame(seen[0][i], seen[t][i], "key " + i);
      }
    }
  }

  @Test
  void collectedKeysAreUnlinkedWhileLiveKeysKeepTheirOwnEntries() {
    WeakIdentityTable<Integer> table = new WeakIdentityTable<>();
    List<Object> live = new ArrayList<>();
    List<WeakIdentityTable.Entry<Integer>> entries = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      Object key = new Object();
      int value = i;
      live.add(key);
      entries.add(table.entry(key, k -> value));
    }
    // garbage keys, collected and expunged by later inserts; the segments resize meanwhile
    for (int round = 0; round < 20 && table.size() > 12_000; round++) {
      for (int i = 0; i < 50_000; i++) {
        table.getOrCreate(new Object(), k -> -1);
      }
      System.gc();
    }
    for (int round = 0; round < 50 && table.size() > 6_000; round++) {
      System.gc();
      for (int i = 0; i < 2_000; i++) {
        table.getOrCreate(new Object(), k -> -1); // each insert expunges up to 32 cleared entries
      }
    }
    assertTrue(table.size() < 6_000, "cleared entries are expunged: " + table.size() + " left");
    for (int i = 0; i < live.size(); i++) {
      assertSame(entries.get(i), table.peekEntry(live.get(i)), "key " + i + " keeps its entry, not a copy");
      assertEquals(i, table.get(live.get(i)));
    }
  }

  @Test
  void readersNeverMissALiveKeyIntoASecondValueWhileOthersExpungeAndResize() throws InterruptedException {
    WeakIdentityTable<Object> table = new WeakIdentityTable<>();
    Object[] keys = new Object[1_000];
    Object[] values = new Object[keys.length];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = new Object();
      values[i] = table.getOrCreate(keys[i], k -> new Object());
    }
    AtomicBoolean done = new AtomicBoolean();
    AtomicInteger created = new AtomicInteger();
    AtomicInteger wrong = new AtomicInteger();
    Thread churn = new Thread(() -> {
      for (int round = 0; round < 30; round++) {
        for (int i = 0; i < 20_000; i++) {
          table.getOrCreate(new Object(), k -> k);
        }
        System.gc();
      }
      done.set(true);
    });
    List<Thread> readers = new ArrayList<>();
    for (int t = 0; t < 2; t++) {
      readers.add(new Thread(() -> {
        while (!done.get()) {
          for (int i = 0; i < keys.length; i++) {
            Object v = table.getOrCreate(keys[i], k -> {
              created.incrementAndGet();
              return new Object();
            });
            if (v != values[i]) {
              wrong.incrementAndGet();
            }
          }
        }
      }));
    }
    churn.start();
    readers.forEach(Thread::start);
    churn.join();
    for (Thread reader : readers) {
      reader.join();
    }
    assertEquals(0, created.get(), "a live key's value is never created twice");
    assertEquals(0, wrong.get(), "a live key always maps to its value");
  }
}
