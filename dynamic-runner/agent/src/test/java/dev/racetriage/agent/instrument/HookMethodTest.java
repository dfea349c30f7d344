package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.runtime.Hooks;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Type;

class HookMethodTest {

  @Test
  void everyHookTheInstrumenterCallsExistsWithItsDescriptor() throws Exception {
    assertEquals(HookMethod.OWNER, Type.getInternalName(Hooks.class));
    for (HookMethod hook : HookMethod.values()) {
      boolean found = false;
      for (Method m : Hooks.class.getDeclaredMethods()) {
        if (m.getName().equals(hook.methodName()) && Type.getMethodDescriptor(m).equals(hook.descriptor())) {
          assertTrue(Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers()), hook.name());
          found = true;
        }
      }
      assertTrue(found, "Hooks lacks " + hook.methodName() + hook.descriptor());
    }
    assertEquals(Hooks.SYNC_ACQUIRE, HookMethod.SYNC_ACQUIRE);
    assertEquals(Hooks.SYNC_RELEASE, HookMethod.SYNC_RELEASE);
  }
}
