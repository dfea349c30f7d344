package dev.racetriage.prefilter.facts;

/**
 * What a class says about its own concurrency.
 *
 * @param binaryName {@code pkg.Outer$Inner}
 * @param threadSafe annotated {@code @ThreadSafe}: every method may be called from several threads at once
 * @param notThreadSafe annotated {@code @NotThreadSafe}: callers promise not to share it
 * @param threadConfined annotated {@code @ThreadConfined}
 * @param synchronizes the class uses synchronized or locks, a sign its author expects concurrent callers (RacerD)
 */
public record TypeFacts(
    String binaryName, boolean threadSafe, boolean notThreadSafe, boolean threadConfined, boolean synchronizes) {}
