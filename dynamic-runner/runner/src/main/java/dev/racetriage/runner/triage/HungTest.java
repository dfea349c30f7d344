package dev.racetriage.runner.triage;

/**
 * A test that ran past its limit and was stopped, so the other tests could go on: in which phase ("baseline",
 * "detect"), its limit, and the excerpt of the thread dump taken before the stop (the test thread's stack first).
 */
public record HungTest(String test, String phase, long limitMillis, String threads) {}
