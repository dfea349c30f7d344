package dev.racetriage.launcher;

import java.util.Map;

/**
 * A thread dump excerpt for a hung test, in {@code jstack}'s shape: the test's own thread first, then the other live
 * non-daemon threads (what the test may be waiting for), cut at a size a results line can carry.
 */
final class ThreadDump {
  static final int MAX_CHARS = 8_000;
  private static final int MAX_FRAMES = 40;

  private ThreadDump() {}

  static String excerpt(Thread testThread) {
    Map<Thread, StackTraceElement[]> all = Thread.getAllStackTraces();
    StringBuilder out = new StringBuilder();
    StackTraceElement[] own = all.get(testThread);
    if (own != null) {
      append(out, testThread, own);
    }
    for (Map.Entry<Thread, StackTraceElement[]> e : all.entrySet()) {
      Thread t = e.getKey();
      if (t == testThread || t == Thread.currentThread() || t.isDaemon()) continue;
      if (out.length() >= MAX_CHARS) break;
      append(out, t, e.getValue());
    }
    if (out.length() > MAX_CHARS) {
      out.setLength(MAX_CHARS);
      out.append("\n\t... (truncated)");
    }
    return out.toString();
  }

  private static void append(StringBuilder out, Thread t, StackTraceElement[] frames) {
    out.append('"').append(t.getName()).append('"').append(t.isDaemon() ? " daemon" : "")
        .append(" state=").append(t.getState()).append('\n');
    for (int i = 0; i < frames.length && i < MAX_FRAMES; i++) {
      out.append("\tat ").append(frames[i]).append('\n');
    }
    if (frames.length > MAX_FRAMES) {
      out.append("\t... ").append(frames.length - MAX_FRAMES).append(" more\n");
    }
    out.append('\n');
  }
}
