package dev.racetriage.agent.detect;

/**
 * Receives races from the {@link HSummaryDetector}. Called on the racing program thread, outside any detector lock;
 * implementations must be thread-safe, must not use {@code java.util.concurrent} (the agent must not re-enter code
 * it may instrument) and should return quickly. An exception thrown here is swallowed and counted by the detector.
 */
@FunctionalInterface
public interface RaceSink {
    void race(RaceReport report);

    /**
     * {@link #race(RaceReport)} with the site ids the report's sites were resolved from (so the sink can recognise
     * repeats in {@link #absorbed} by ids, without resolving them).
     */
    default void race(RaceReport report, int site, int previousSite) {
        race(report);
    }

    /**
     * Whether the next report on {@code fieldKey} needs the racing access's stack. Capturing one costs tens of
     * microseconds, and a racy loop reports on every iteration: a sink that keeps only the first stack per field
     * says no once it has it. The answer may be stale by the time the report arrives; both ways are harmless.
     */
    default boolean wantsStack(String fieldKey) {
        return true;
    }

    /**
     * Lets the sink count a report that would add nothing to what it holds — same field, kind, sites, test, and an
     * index it has — without the detector building it: true if counted (the detector then does nothing more).
     * {@code tid} spreads the counting over stripes. The default takes every report whole.
     */
    default boolean absorbed(String fieldKey, RaceKind kind, int site, int previousSite, int index, long tid) {
        return false;
    }

    /**
     * A race the predictive analysis (predict=true, {@code agent.predict.WcpAnalysis}) found where happens-before
     * orders the accesses: another schedule exposes it; {@code witness} says which lock order to flip.
     */
    default void predicted(RaceReport report, String witness) {
        race(report);
    }
}
