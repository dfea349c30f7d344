package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.detect.SiteTable;
import dev.racetriage.agent.runtime.FieldRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The read-lock contract's calls in the retransformed ReentrantReadWriteLock views: each read acquire and read
 * unlock is bracketed (entry, normal exit, and the catch-all that turns the hooks back on), each write acquire
 * followed by the readers' acquire, and nothing else in those classes changes.
 */
class LockContractsTest {
  private static final String RW = "java/util/concurrent/locks/ReentrantReadWriteLock";
  private final ClassInstrumenter instrumenter = new ClassInstrumenter(new SiteTable(), new FieldRegistry());

  @Test
  void readAcquiresAndUnlocksAreBracketedAndWriteAcquiresTakeTheReaders() throws IOException {
    Map<String, List<String>> read = contractCalls(RW + "$ReadLock");
    assertEquals(List.of("readAcquiring", "readAcquired", "readAcquired"), read.get("lock()V"));
    assertEquals(List.of("readAcquiring", "readAcquired", "readAcquired"), read.get("lockInterruptibly()V"));
    assertEquals(List.of("readAcquiring", "readAcquired", "readAcquired"), read.get("tryLock()Z"));
    assertEquals(List.of("readAcquiring", "readAcquired", "readAcquired"),
        read.get("tryLock(JLjava/util/concurrent/TimeUnit;)Z"));
    assertEquals(List.of("readReleasing", "readReleased", "readReleased"), read.get("unlock()V"));
    assertEquals(List.of(), read.get("toString()Ljava/lang/String;"));
    assertEquals(List.of(), read.get("newCondition()Ljava/util/concurrent/locks/Condition;"));

    Map<String, List<String>> write = contractCalls(RW + "$WriteLock");
    assertEquals(List.of("writeAcquired"), write.get("lock()V"));
    assertEquals(List.of("writeAcquired"), write.get("tryLock()Z"));
    assertEquals(List.of(), write.get("unlock()V"));
    assertEquals(Map.of(), withCalls(contractCalls(RW + "$Sync")), "the synchronizer itself is unchanged");
  }

  @Test
  void stampedLockReadAcquiresAndUnlocksAreBracketedAndWriteAcquiresTakeTheReaders() throws IOException {
    Map<String, List<String>> calls = contractCalls("java/util/concurrent/locks/StampedLock");
    for (String acquire : List.of("readLock()J", "tryReadLock()J", "readLockInterruptibly()J")) {
      assertBracketed(calls.get(acquire), List.of("readAcquiring"), "readAcquired");
    }
    assertBracketed(calls.get("unlockRead(J)V"), List.of("readersOf", "readReleasing"), "readReleased");
    List<String> write = calls.get("writeLock()J");
    assertTrue(write.size() >= 2 && write.size() % 2 == 0, write.toString());
    for (int i = 0; i < write.size(); i += 2) {
      assertEquals(List.of("readersOf", "writeAcquired"), write.subList(i, i + 2), write.toString());
    }
    assertEquals(List.of(), calls.get("unlockWrite(J)V"));
    assertEquals(List.of(), calls.get("tryOptimisticRead()J"));
    assertEquals(List.of(), calls.get("validate(J)Z"));
  }

  @Test
  void everyContractCallExistsInTheRuntimeWithItsDescriptor() throws Exception {
    Class<?> runtime = Class.forName(LockContracts.OWNER.replace('/', '.'));
    Map<String, String> expected = Map.of("readAcquiring", "()V", "readAcquired", "(ZLjava/lang/Object;)V",
        "readReleasing", "(Ljava/lang/Object;)V", "readReleased", "()V", "writeAcquired", "(ZLjava/lang/Object;)V",
        "readersOf", "(Ljava/lang/Object;)Ljava/lang/Object;");
    for (Map.Entry<String, String> e : expected.entrySet()) {
      boolean found = false;
      for (Method m : runtime.getDeclaredMethods()) {
        if (m.getName().equals(e.getKey()) && Type.getMethodDescriptor(m).equals(e.getValue())) {
          assertTrue(Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers()), e.getKey());
          found = true;
        }
      }
      assertTrue(found, "LockContracts lacks " + e.getKey() + e.getValue());
    }
  }

  /** The entry calls, then the exit call at each return (one at least) and in the catch-all handler. */
  private static void assertBracketed(List<String> calls, List<String> entry, String exit) {
    assertEquals(entry, calls.subList(0, entry.size()), calls.toString());
    List<String> exits = calls.subList(entry.size(), calls.size());
    assertTrue(exits.size() >= 2 && exits.stream().allMatch(exit::equals), calls.toString());
  }

  private static Map<String, List<String>> withCalls(Map<String, List<String>> calls) {
    Map<String, List<String>> some = new LinkedHashMap<>(calls);
    some.values().removeIf(List::isEmpty);
    return some;
  }

  /** Per method (name + descriptor), the LockContracts methods the instrumented class calls, in order. */
  private Map<String, List<String>> contractCalls(String internalName) throws IOException {
    byte[] out;
    try (InputStream in = ClassLoader.getSystemResourceAsStream(internalName + ".class")) {
      out = instrumenter.instrument(ClassKind.TRUSTED_JDK, null, in.readAllBytes()).bytes();
    }
    Map<String, List<String>> calls = new LinkedHashMap<>();
    new ClassReader(out).accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exceptions) {
        List<String> mine = new ArrayList<>();
        calls.put(name + desc, mine);
        return new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitMethodInsn(int opcode, String owner, String method, String d, boolean itf) {
            if (owner.equals(LockContracts.OWNER)) {
              mine.add(method);
            }
          }
        };
      }
    }, 0);
    return calls;
  }
}
