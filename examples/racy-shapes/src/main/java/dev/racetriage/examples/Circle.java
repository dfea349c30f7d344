package dev.racetriage.examples;

/** A shape with no mutable state, so that only the reference to it can race. */
public final class Circle {
  public int draw() {
    return 1;
  }
}
