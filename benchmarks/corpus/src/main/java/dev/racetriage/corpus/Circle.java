package dev.racetriage.corpus;

/** An immutable shape: drawing it needs no synchronisation, so only the reference to it can race. */
public final class Circle {
  public int draw() {
    return 1;
  }
}
