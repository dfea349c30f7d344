package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** JPR {@code hash} and {@code hash2}: two threads hash the same 20 strings; one of them mostly finds them cached. */
class StringHashTest {
  private static final int STRINGS = 20;

  @Test
  void cachedHashIsAlwaysTheStringHash() throws Throwable {
    StringHash[] hashes = new StringHash[STRINGS];
    for (int i = 0; i < STRINGS; i++) hashes[i] = new StringHash(text(i));
    Concurrently.Body hashAll = () -> {
      for (int i = 0; i < STRINGS; i++) assertEquals(text(i).hashCode(), hashes[i].hashCode(), text(i));
    };
    Concurrently.run(hashAll, Concurrently.settled(hashAll));
  }

  @Test
  void rereadHashIsAlwaysTheStringHash() throws Throwable {
    StringHashReread[] hashes = new StringHashReread[STRINGS];
    for (int i = 0; i < STRINGS; i++) hashes[i] = new StringHashReread(text(i));
    Concurrently.Body hashAll = () -> {
      for (int i = 0; i < STRINGS; i++) assertEquals(text(i).hashCode(), hashes[i].hashCode(), text(i));
    };
    Concurrently.run(hashAll, Concurrently.settled(hashAll));
  }

  private static String text(int i) {
    return "racetriage-" + i;
  }
}
