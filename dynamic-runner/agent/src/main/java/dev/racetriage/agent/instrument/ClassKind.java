package dev.racetriage.agent.instrument;

/** How the transformer treats a class, decided from its name alone (so load and retransformation agree). */
public enum ClassKind {
  /** Application code: accesses are checked, synchronisation is tracked. */
  APPLICATION,
  /**
   * A JDK class trusted to be race-free whose synchronisation makes happens-before edges between application threads
   * (java.util.concurrent, the synchronized java.util containers): only its synchronisation is tracked, never its
   * accesses (Java RaceFinder §5.4).
   */
  TRUSTED_JDK,
  /** java.lang.Thread: start() forks, join() joins, even when JDK code (a thread pool) calls them. */
  THREAD,
  /**
   * JDK classes whose loading and linking methods run quiet, their synchronisation unseen (the built-in class loaders,
   * the JVM's linkage upcalls: see {@link QuietLinking}).
   */
  QUIET_JDK,
  /** Left alone: the rest of the JDK, the agent itself, user excludes. */
  IGNORED
}
