package dev.racetriage.runner.verdict;

/**
 * One confirmation pair: a control run and an adversarial run of the same test made back to back in the same JVM, so
 * that both see the same machine load. {@link PairedSlowdown} judges a slowdown on the pairs' ratios, which a load
 * swing between pairs does not move.
 */
public record PairedRun(long controlMillis, long adversarialMillis) {

  /** The adversarial run's duration over the control's (a control of 0 ms counts as 1 ms). */
  public double ratio() {
    return adversarialMillis / (double) Math.max(1, controlMillis);
  }

  public long differenceMillis() {
    return adversarialMillis - controlMillis;
  }
}
