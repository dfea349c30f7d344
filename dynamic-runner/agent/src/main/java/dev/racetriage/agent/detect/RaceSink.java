package dev.racetriage.agent.detect;

/**
 * Receives races from the {@link HSummaryDetector}. Called on the racing program thread, outside any detector lock;
 * implementations must be thread-safe, must not use {@code java.util.concurrent} (the agent must not re-enter code
 * it may instrument) and should return quickly. An exception thrown here is swallowed and counted by the detector.
 */
@FunctionalInterface
public interface RaceSink {
    void race(RaceReport report);
}
