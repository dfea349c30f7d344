package dev.racetriage.corpus;

/** The object {@link HelperHolder} publishes lazily; its constructor's write is what a racy reader may not see. */
public final class Helper {
  int value;

  Helper() {
    value = 42;
  }

  public int value() {
    return value;
  }
}
