/**
 * The evaluation corpus: racy programs from the papers racetriage is built on (JUMBLE, Java PathRelaxer, RELAXER,
 * the JGF and SPEC benchmarks JUMBLE evaluated) and classic racy idioms. Each class comment names its source and the
 * verdict its racy fields should get; {@code expected.tsv} at the project root is the machine-readable table.
 */
package dev.racetriage.corpus;
