/**
 * The in-JVM test launcher: the main class the runner starts in every forked test JVM (baseline, detection and
 * trials). It runs the selected tests through the project's own JUnit Platform Launcher and writes one JSON line per
 * event to a results file, flushed as it goes, so a JVM killed at its timeout or ended by {@code System.exit} still
 * leaves the evidence of what started and what finished.
 *
 * <p>It is compiled against the JUnit Platform Launcher API but does not bundle it: the runner puts a launcher jar
 * matching the project's {@code junit-platform-engine} version on the class path. Only API present since Platform 1.0
 * is used, so any 1.x or 6.x launcher works.
 */
package dev.racetriage.launcher;
