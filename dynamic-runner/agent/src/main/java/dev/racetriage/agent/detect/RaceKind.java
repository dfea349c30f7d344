package dev.racetriage.agent.detect;

/**
 * The two race kinds the h-summary reports (JRF §2.2, Theorem 2: a program whose SC executions have only RW races is
 * still sequentially consistent, so RW races are not tracked). The kind is decided by the access that finds the
 * location missing from h(t): h only ever loses a location through a write (invalidate), so the earlier conflicting
 * access is always a write — a read that finds it missing is WR, a write is WW.
 */
public enum RaceKind {
    /** A write, then a read by another thread not ordered after it. */
    WR,
    /** A write, then a write by another thread not ordered after it. */
    WW
}
