package dev.racetriage.agent.runtime;

/**
 * The daemon thread that flushes the {@link ReportStream} every interval, so races reach the report file while the
 * program runs without any file I/O in an access hook (hooks run on program threads, possibly holding locks, possibly
 * deep in a stack). It is busy for its whole life: its file writes and the JDK code it calls produce no events, and
 * it never gets a happens-before state. A daemon, so it never keeps the JVM alive; it ends when the stream closes.
 */
final class ReportFlusher implements Runnable { // a Runnable, not a lambda: see AgentBootstrap.reportAtExit
  static final String THREAD_NAME = "racetriage-report-flusher";

  private final ReportStream stream;
  private final long intervalMillis;

  private ReportFlusher(ReportStream stream, long intervalMillis) {
    this.stream = stream;
    this.intervalMillis = intervalMillis;
  }

  /** Starts the thread; the caller is marked busy meanwhile, so the start is no fork event of the program's. */
  static void start(ReportStream stream, long intervalMillis) {
    ThreadShadow caller = ThreadShadow.current();
    boolean previous = caller.enterAgent();
    try {
      Thread thread = new Thread(new ReportFlusher(stream, intervalMillis), THREAD_NAME);
      thread.setDaemon(true);
      thread.start();
    } finally {
      caller.exitAgent(previous);
    }
  }

  @Override
  public void run() {
    ThreadShadow.current().enterAgent();
    try {
      while (!stream.finished()) {
        Thread.sleep(intervalMillis);
        stream.flush();
      }
    } catch (InterruptedException e) {
      // nobody interrupts it but a JVM going down; the exit hook writes the rest
    }
  }
}
