package dev.racetriage.agent.instrument;

/**
 * The instrumentation of one class file, independent of any run's id tables: the template, what the class hierarchy
 * should know about the class (null when nothing), and the digests of the other classes the instrumentation read
 * ({@code dependencyNames[i]} had class file digest {@code dependencyDigests[i]}), or null when the result cannot be
 * reused by another run (it depended on a class whose file cannot be read back).
 */
record CompiledClass(IdTemplate template, ClassInfo info, String[] dependencyNames, long[] dependencyDigests) {

  boolean reusable() {
    return dependencyNames != null;
  }
}
