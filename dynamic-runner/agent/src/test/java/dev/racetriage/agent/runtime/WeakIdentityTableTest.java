package dev.racetriage.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
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
}
