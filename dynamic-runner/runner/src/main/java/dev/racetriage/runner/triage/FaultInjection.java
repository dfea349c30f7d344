package dev.racetriage.runner.triage;

/**
 * The one place a test can stop a triage at a chosen point, to kill it there ({@code TriageFaultsTest}): with the
 * environment variable {@code RACETRIAGE_FAULT_PAUSE_IN_STORE=MILLIS} the store phase pauses inside its transaction
 * after the first race's verdict. Unset (always, for users), it does nothing.
 */
final class FaultInjection {
  private static final String PAUSE_IN_STORE = "RACETRIAGE_FAULT_PAUSE_IN_STORE";
  private static boolean paused;

  private FaultInjection() {}

  static synchronized void pauseInStorePhase() {
    String millis = System.getenv(PAUSE_IN_STORE);
    if (millis == null || paused) return;
    paused = true;
    System.err.println("racetriage: fault injection: pausing in the store phase for " + millis + " ms");
    System.err.flush();
    try {
      Thread.sleep(Long.parseLong(millis.strip()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (NumberFormatException e) {
      // not a number: no pause
    }
  }
}
