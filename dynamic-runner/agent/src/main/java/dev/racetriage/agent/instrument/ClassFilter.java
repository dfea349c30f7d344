package dev.racetriage.agent.instrument;

import java.util.List;

/**
 * Decides from an internal class name ({@code pkg/Cls$Inner}) what the transformer does with the class.
 *
 * <p>Application classes are everything outside the JDK namespaces and the agent, minus user excludes and the test
 * infrastructure the agent's users run under (JUnit, Surefire, Mockito/ByteBuddy, EasyMock), which is not theirs to
 * triage and is expensive to instrument. A user {@code include} prefix wins over every default exclusion except the JDK and the
 * agent itself.
 */
public final class ClassFilter {

  static final List<String> JDK_PREFIXES = List.of("java/", "javax/", "jdk/", "sun/", "com/sun/");
  static final String AGENT_PREFIX = "dev/racetriage/agent/";
  static final List<String> TEST_INFRASTRUCTURE = List.of(
      "org/junit/", "junit/", "org/opentest4j/", "org/apiguardian/", "org/apache/maven/surefire/",
      "org/hamcrest/", "org/assertj/", "org/mockito/", "net/bytebuddy/", "org/objenesis/",
      // other mocking and test libraries
      "org/easymock/", "org/powermock/", "org/jmock/", "org/junitpioneer/", "org/testng/",
      "org/jacoco/", // JaCoCo's agent runtime, which a project's Surefire argLine often starts next to ours
      "dev/racetriage/launcher/"); // racetriage's in-JVM test launcher runs the tests, it is not under test

  /**
   * Fields a coverage tool adds to every class it instruments (JaCoCo's {@code $jacocoData} probe array, Cobertura's
   * and OpenClover's counters): every thread of every test writes them without synchronisation, by design, so each
   * instrumented class would report a race that is the coverage tool's, not the application's (seen on a real
   * project whose Surefire argLine starts JaCoCo: 20 of its 24 races).
   */
  static final List<String> COVERAGE_FIELDS = List.of("$jacocoData", "__cobertura_counters", "__CLR");

  static boolean isCoverageField(String name) {
    for (String prefix : COVERAGE_FIELDS) {
      if (name.startsWith(prefix)) return true;
    }
    return false;
  }

  /**
   * JDK classes whose synchronisation hands application objects from thread to thread. ThreadLocalRandom is left
   * out on purpose: its shared seed state would order every thread that draws a random number.
   */
  static final List<String> TRUSTED_PREFIXES = List.of(
      "java/util/concurrent/", "java/util/Vector", "java/util/Stack", "java/util/Hashtable",
      "java/util/Collections$Synchronized", "java/util/Timer", "java/util/TaskQueue", "java/util/TimerThread");
  static final List<String> UNTRUSTED_IN_TRUSTED = List.of(
      "java/util/concurrent/ThreadLocalRandom", "java/util/concurrent/locks/LockSupport");

  /**
   * The wait-queue nodes of AbstractQueuedSynchronizer (and its long twin): neither instrumented nor followed from
   * AQS code (see {@link #isQueueNode}). They order nothing the application can see: every AQS acquire that returns
   * (lock, latch await, semaphore acquire, condition await re-acquiring its lock) has just read or CASed the
   * synchronizer's {@code state}, which every release writes before it unparks a successor — that edge, on the
   * synchronizer object, is kept. Hooking the nodes made each contended acquire create, register and later expunge
   * shadow state for a node that no application thread ever sees.
   */
  static final List<String> AQS_QUEUE_NODES = List.of(
      "java/util/concurrent/locks/AbstractQueuedSynchronizer$Node",
      "java/util/concurrent/locks/AbstractQueuedSynchronizer$ExclusiveNode",
      "java/util/concurrent/locks/AbstractQueuedSynchronizer$SharedNode",
      "java/util/concurrent/locks/AbstractQueuedSynchronizer$ConditionNode",
      "java/util/concurrent/locks/AbstractQueuedLongSynchronizer$Node",
      "java/util/concurrent/locks/AbstractQueuedLongSynchronizer$ExclusiveNode",
      "java/util/concurrent/locks/AbstractQueuedLongSynchronizer$SharedNode",
      "java/util/concurrent/locks/AbstractQueuedLongSynchronizer$ConditionNode");

  /** AbstractQueuedSynchronizer and its long twin: see {@link #isQueueBookkeeping}. */
  static final List<String> AQS_CLASSES = List.of(
      "java/util/concurrent/locks/AbstractQueuedSynchronizer",
      "java/util/concurrent/locks/AbstractQueuedLongSynchronizer");
  static final String OWNABLE_SYNCHRONIZER = "java/util/concurrent/locks/AbstractOwnableSynchronizer";

  static final String THREAD = "java/lang/Thread";

  private final List<String> includes;
  private final List<String> excludes;

  /** @param includes/excludes binary-name prefixes with dots, as the user writes them */
  public ClassFilter(List<String> includes, List<String> excludes) {
    this.includes = internal(includes);
    this.excludes = internal(excludes);
  }

  public ClassKind kindOf(String internalName) {
    if (internalName == null) {
      return ClassKind.IGNORED; // hidden classes have no name to decide on
    }
    if (internalName.equals(THREAD)) {
      return ClassKind.THREAD;
    }
    if (QuietLinking.isQuiet(internalName)) {
      return ClassKind.QUIET_JDK;
    }
    if (startsWithAny(internalName, JDK_PREFIXES)) {
      return isTrusted(internalName) ? ClassKind.TRUSTED_JDK : ClassKind.IGNORED;
    }
    if (internalName.startsWith(AGENT_PREFIX)) {
      return ClassKind.IGNORED;
    }
    if (startsWithAny(internalName, excludes)) {
      return ClassKind.IGNORED;
    }
    if (startsWithAny(internalName, includes)) {
      return ClassKind.APPLICATION;
    }
    if (startsWithAny(internalName, TEST_INFRASTRUCTURE) || internalName.contains("$$Lambda")) {
      return ClassKind.IGNORED;
    }
    return ClassKind.APPLICATION;
  }

  /** Why a class of kind {@link ClassKind#IGNORED} is not instrumented, for the verbose log. */
  public String whyIgnored(String internalName) {
    if (internalName == null) {
      return "hidden class";
    }
    if (startsWithAny(internalName, JDK_PREFIXES)) {
      return "JDK class";
    }
    if (internalName.startsWith(AGENT_PREFIX)) {
      return "the agent's own class";
    }
    if (startsWithAny(internalName, excludes)) {
      return "excluded by option 'exclude'";
    }
    return "test infrastructure (add it to 'include' to check it)";
  }

  static boolean isTrusted(String internalName) {
    return startsWithAny(internalName, TRUSTED_PREFIXES) && !startsWithAny(internalName, UNTRUSTED_IN_TRUSTED)
        && !isQueueNode(internalName);
  }

  /** True for an AQS wait-queue node class ({@link #AQS_QUEUE_NODES}): trusted code's accesses to it are not hooked. */
  static boolean isQueueNode(String internalName) {
    return AQS_QUEUE_NODES.contains(internalName);
  }

  /**
   * True for a field of a synchronizer that only keeps its wait queue or its owner, which trusted code reads and
   * writes without a hook: AQS's {@code head} and {@code tail} (pointers to the queue nodes, see
   * {@link #AQS_QUEUE_NODES}) and the owner thread of AbstractOwnableSynchronizer (set by the thread that holds the
   * lock, read for the owner check). The same argument as for the nodes: every AQS acquire that returns has read or
   * CASed {@code state} after the releasing thread wrote it, and that edge is kept. An unlock otherwise paid two
   * hooks more (its owner check and the read of {@code head} that looks for a successor to unpark).
   */
  static boolean isQueueBookkeeping(String declaringClass, String field) {
    if (AQS_CLASSES.contains(declaringClass)) {
      return field.equals("head") || field.equals("tail");
    }
    return declaringClass.equals(OWNABLE_SYNCHRONIZER) && field.equals("exclusiveOwnerThread");
  }

  /**
   * True for a reference compare-and-set (or other atomic on a reference) made by AQS's own code: there it is only
   * ever on {@code head} or {@code tail} (see {@link #isQueueBookkeeping}); {@code state} is an int (a long).
   */
  static boolean isQueueBookkeepingAtomic(String caller, String operation) {
    return AQS_CLASSES.contains(caller) && operation.endsWith("Reference");
  }

  private static boolean startsWithAny(String name, List<String> prefixes) {
    for (String prefix : prefixes) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /** A loop, not a stream and a lambda: each lambda the agent links at start-up spins hidden classes (~1 ms each). */
  private static List<String> internal(List<String> binaryPrefixes) {
    List<String> out = new java.util.ArrayList<>(binaryPrefixes.size());
    for (String prefix : binaryPrefixes) {
      out.add(prefix.replace('.', '/'));
    }
    return List.copyOf(out);
  }
}
