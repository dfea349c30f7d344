package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClassFilterTest {
  private final ClassFilter defaults = new ClassFilter(List.of(), List.of());

  @Test
  void applicationClassesAreEverythingOutsideTheJdkAndTheAgent() {
    assertEquals(ClassKind.APPLICATION, defaults.kindOf("com/acme/Shop"));
    assertEquals(ClassKind.APPLICATION, defaults.kindOf("Main"));
    assertEquals(ClassKind.APPLICATION, defaults.kindOf("org/objectweb/asm/ClassReader")); // the program's own ASM
    assertEquals(ClassKind.APPLICATION, defaults.kindOf("dev/racetriage/examples/Point"));
    for (String jdk : List.of("java/lang/String", "javax/net/Socket", "jdk/internal/misc/Unsafe",
        "sun/nio/ch/Net", "com/sun/crypto/Cipher", "java/util/HashMap")) {
      assertEquals(ClassKind.IGNORED, defaults.kindOf(jdk), jdk);
    }
    assertEquals(ClassKind.IGNORED, defaults.kindOf("dev/racetriage/agent/runtime/Hooks"));
    assertEquals(ClassKind.IGNORED, defaults.kindOf("dev/racetriage/agent/shaded/asm/ClassReader"));
    assertEquals(ClassKind.IGNORED, defaults.kindOf(null));
  }

  @Test
  void concurrencyClassesOfTheJdkAreTrustedExceptThoseThatWouldOrderEverything() {
    for (String trusted : List.of("java/util/concurrent/ConcurrentHashMap",
        "java/util/concurrent/locks/AbstractQueuedSynchronizer", "java/util/concurrent/atomic/AtomicInteger",
        "java/util/concurrent/ForkJoinPool$WorkQueue", "java/util/Vector", "java/util/Hashtable",
        "java/util/Collections$SynchronizedList", "java/util/Stack")) {
      assertEquals(ClassKind.TRUSTED_JDK, defaults.kindOf(trusted), trusted);
    }
    assertEquals(ClassKind.IGNORED, defaults.kindOf("java/util/concurrent/ThreadLocalRandom"));
    assertEquals(ClassKind.IGNORED, defaults.kindOf("java/util/concurrent/locks/LockSupport"));
    assertEquals(ClassKind.IGNORED, defaults.kindOf("java/util/concurrent/locks/AbstractQueuedSynchronizer$Node"));
    assertEquals(ClassKind.IGNORED,
        defaults.kindOf("java/util/concurrent/locks/AbstractQueuedSynchronizer$ExclusiveNode"));
    assertEquals(ClassKind.TRUSTED_JDK,
        defaults.kindOf("java/util/concurrent/locks/AbstractQueuedSynchronizer$ConditionObject"));
    assertEquals(ClassKind.THREAD, defaults.kindOf("java/lang/Thread"));
    assertEquals(ClassKind.IGNORED, defaults.kindOf("java/lang/ThreadGroup"));
  }

  @Test
  void coverageToolsAreNotUnderTest() {
    assertEquals(ClassKind.IGNORED, defaults.kindOf("org/jacoco/agent/rt/internal_aeaf9ab/core/data/ExecutionData"));
    org.junit.jupiter.api.Assertions.assertTrue(ClassFilter.isCoverageField("$jacocoData"));
    org.junit.jupiter.api.Assertions.assertTrue(ClassFilter.isCoverageField("__cobertura_counters"));
    org.junit.jupiter.api.Assertions.assertFalse(ClassFilter.isCoverageField("data"));
    org.junit.jupiter.api.Assertions.assertFalse(ClassFilter.isCoverageField("jacocoData"));
  }

  @Test
  void testInfrastructureIsSkippedUnlessIncluded() {
    assertEquals(ClassKind.IGNORED, defaults.kindOf("org/junit/jupiter/engine/JupiterTestEngine"));
    assertEquals(ClassKind.IGNORED, defaults.kindOf("org/mockito/Mockito"));
    assertEquals(ClassKind.IGNORED, defaults.kindOf("net/bytebuddy/ByteBuddy"));
    assertEquals(ClassKind.IGNORED, defaults.kindOf("org/easymock/EasyMock"), "commons-lang's tests mock with it");
    assertEquals(ClassKind.IGNORED, defaults.kindOf("org/junitpioneer/jupiter/DefaultLocaleExtension"));
    assertTrue(defaults.whyIgnored("org/mockito/Mockito").contains("include"));
    ClassFilter including = new ClassFilter(List.of("org.junit."), List.of());
    assertEquals(ClassKind.APPLICATION, including.kindOf("org/junit/jupiter/engine/JupiterTestEngine"));
  }

  @Test
  void userExcludesWinOverIncludesAndNeverReachTheJdk() {
    ClassFilter filter = new ClassFilter(List.of("com.acme.", "java.util."), List.of("com.acme.gen.", "Main"));
    assertEquals(ClassKind.APPLICATION, filter.kindOf("com/acme/Shop"));
    assertEquals(ClassKind.IGNORED, filter.kindOf("com/acme/gen/Stub"));
    assertEquals(ClassKind.IGNORED, filter.kindOf("Main$Inner"));
    assertEquals(ClassKind.IGNORED, filter.kindOf("java/util/HashMap"));
    assertEquals("excluded by option 'exclude'", filter.whyIgnored("com/acme/gen/Stub"));
  }
}
