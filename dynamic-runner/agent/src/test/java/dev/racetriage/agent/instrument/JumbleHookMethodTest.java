package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.runtime.JumbleHooks;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Type;

class JumbleHookMethodTest {

  @Test
  void everyJumbleHookTheInstrumenterCallsExistsWithItsDescriptor() {
    assertEquals(JumbleHookMethod.OWNER, Type.getInternalName(JumbleHooks.class));
    for (JumbleHookMethod hook : JumbleHookMethod.values()) {
      boolean found = false;
      for (Method m : JumbleHooks.class.getDeclaredMethods()) {
        if (m.getName().equals(hook.methodName()) && Type.getMethodDescriptor(m).equals(hook.descriptor())) {
          assertTrue(Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers()), hook.name());
          found = true;
        }
      }
      assertTrue(found, "JumbleHooks lacks " + hook.methodName() + hook.descriptor());
    }
  }
}
