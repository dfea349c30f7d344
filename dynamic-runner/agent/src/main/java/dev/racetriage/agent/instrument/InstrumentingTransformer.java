package dev.racetriage.agent.instrument;

import dev.racetriage.agent.runtime.ShadowSlots;
import dev.racetriage.agent.runtime.ThreadShadow;
import java.io.IOException;
import java.lang.instrument.ClassFileTransformer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.ProtectionDomain;

/**
 * The agent's ClassFileTransformer (registered as retransformation-capable, so retransformations by other agents,
 * e.g. Mockito's inline mock maker, get the same instrumentation again). Never throws: a class it cannot instrument
 * is loaded as it is and reported to the {@link TransformListener}.
 */
public final class InstrumentingTransformer implements ClassFileTransformer {
  private final ClassFilter filter;
  private final ClassInstrumenter instrumenter;
  private final TransformListener listener;
  private final Path dumpDir;

  public InstrumentingTransformer(ClassFilter filter, ClassInstrumenter instrumenter, TransformListener listener,
                                  Path dumpDir) {
    this.filter = filter;
    this.instrumenter = instrumenter;
    this.listener = listener;
    this.dumpDir = dumpDir;
  }

  @Override
  public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
                          ProtectionDomain protectionDomain, byte[] classfileBuffer) {
    ClassKind kind = filter.kindOf(className);
    if (kind == ClassKind.IGNORED) {
      return null;
    }
    // the transformer's own work (and the JDK code it calls, e.g. resource loading) must not produce events
    ThreadShadow thread = ThreadShadow.current();
    boolean previous = thread.enterAgent();
    try {
      // a JDK class may gain the shadow slot at its first definition only; a retransformation keeps what that did
      boolean jdkSlotAllowed = kind == ClassKind.TRUSTED_JDK && ShadowSlots.available()
          && (classBeingRedefined == null || ShadowSlots.declares(classBeingRedefined));
      ClassInstrumenter.Outcome outcome = instrumenter.instrument(kind, loader, classfileBuffer, jdkSlotAllowed);
      if (outcome.bytes() != null) {
        listener.instrumented(className, kind);
        dump(className, outcome.bytes());
      } else if (outcome.skipReason() != null) {
        listener.skipped(className.replace('/', '.'), outcome.skipReason());
      }
      return outcome.bytes();
    } catch (Throwable e) {
      return null; // never fail a class load because of the agent
    } finally {
      thread.exitAgent(previous);
    }
  }

  private void dump(String className, byte[] bytes) {
    if (dumpDir == null) {
      return;
    }
    try {
      Path file = dumpDir.resolve(className + ".class");
      Files.createDirectories(file.getParent());
      Files.write(file, bytes);
    } catch (IOException | RuntimeException e) {
      // debugging aid only
    }
  }
}
