package dev.racetriage.prefilter.facts;

/**
 * A body of code: a method, constructor, initialiser, or a lambda / method reference / anonymous class handed to a
 * thread.
 *
 * @param key {@code pkg.C#name/arity}, or {@code pkg.C#lambda@line:column} for a lambda
 * @param label how a user names it: {@code run()}, {@code lambda at line 12}
 * @param owner binary name of the enclosing class
 * @param kind what kind of body this is
 * @param isPrivate private methods are reached only through calls inside their class
 * @param entry whether, and how, the body is a thread entry
 * @param joins whether the body waits for threads or tasks ({@code join}, {@code awaitTermination}, a future's
 *     {@code get}): a helper that starts tasks and joins them orders its caller's later accesses after the tasks
 */
public record MethodFacts(String key, String label, String owner, BodyKind kind, boolean isPrivate, ThreadEntry entry,
    boolean joins) {

  public enum BodyKind {
    METHOD,
    CONSTRUCTOR,
    INITIALISER,
    LAMBDA
  }

  /** Whether and how a body starts on another thread. */
  public enum ThreadEntry {
    /** Not a thread entry (it runs wherever its callers run). */
    NONE,
    /** Runs on one other thread: {@code new Thread(r)}, the {@code run()} of a Runnable or Thread. */
    ONE_THREAD,
    /** May run on several threads at once: executor tasks, parallel streams, threads started in a loop. */
    MANY_THREADS;
  }

  public boolean isInitialiser() {
    return kind == BodyKind.CONSTRUCTOR || kind == BodyKind.INITIALISER;
  }
}
