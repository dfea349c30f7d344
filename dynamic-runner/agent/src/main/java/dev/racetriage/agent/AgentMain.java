package dev.racetriage.agent;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.net.URL;
import java.util.jar.JarFile;

/**
 * The {@code Premain-Class}. Puts the agent's own jar on the boot class path first, so that the hooks are one set of
 * classes visible from every class loader — including the boot loader, whose java.util.concurrent and Thread
 * classes are retransformed to call them — and then starts the boot-loaded {@link AgentBootstrap}. This class itself
 * touches nothing but the JDK before that, so no other agent class is loaded by the application class loader.
 */
public final class AgentMain {
  private AgentMain() {
  }

  public static void premain(String argument, Instrumentation inst) {
    try {
      File jar = agentJar();
      Class<?> bootstrap = bootstrapClass(inst, jar);
      exportUnsafeTo(inst, bootstrap.getModule());
      bootstrap.getMethod("start", String.class, Instrumentation.class, String.class)
          .invoke(null, argument, inst, jar.isFile() ? jar.getPath() : null);
    } catch (Throwable e) {
      System.err.println("racetriage agent: ERROR: could not start (" + e + "). The program runs uninstrumented.");
    }
  }

  /** Attach-time entry: the same as premain. */
  public static void agentmain(String argument, Instrumentation inst) {
    premain(argument, inst);
  }

  /**
   * Exports {@code jdk.internal.misc} of java.base to the agent's module (the boot loader's unnamed module), for the
   * runtime's shadow slots (ShadowSlots). Without it the agent works as before, with every shadow in its table.
   */
  private static void exportUnsafeTo(Instrumentation inst, Module agent) {
    try {
      Module base = Object.class.getModule();
      inst.redefineModule(base, java.util.Set.of(), java.util.Map.of("jdk.internal.misc", java.util.Set.of(agent)),
          java.util.Map.of(), java.util.Set.of(), java.util.Map.of());
    } catch (RuntimeException e) {
      System.err.println("racetriage agent: WARNING: could not export jdk.internal.misc to the agent (" + e
          + "); object shadows stay in the agent's table (slower).");
    }
  }

  private static File agentJar() throws Exception {
    URL location = AgentMain.class.getProtectionDomain().getCodeSource().getLocation();
    return new File(location.toURI());
  }

  private static Class<?> bootstrapClass(Instrumentation inst, File jar) throws Exception {
    if (jar.isFile()) {
      inst.appendToBootstrapClassLoaderSearch(new JarFile(jar));
      return Class.forName("dev.racetriage.agent.AgentBootstrap", true, null);
    }
    // running from a classes directory (tests): one class loader sees everything already
    return Class.forName("dev.racetriage.agent.AgentBootstrap");
  }
}
