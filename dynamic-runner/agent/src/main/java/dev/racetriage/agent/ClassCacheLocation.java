package dev.racetriage.agent;

import dev.racetriage.agent.instrument.InstrumentedClassCache;
import dev.racetriage.agent.options.AgentOptions;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.Adler32;
import java.util.zip.CRC32;

/**
 * Where the class cache of this run lives ({@code cache=} option, default under the user's cache directory) and
 * which of its subdirectories: one per agent identity — the agent jar's content, the mode, the jumble fields (their
 * slots are baked into the code) and the JDK (its classes are instrumented and consulted) — so a rebuilt agent,
 * another mode or another JDK never reuses bytes instrumented for something else.
 */
public final class ClassCacheLocation {
  private static final int LAYOUT = 1;

  private ClassCacheLocation() {
  }

  /** The cache to use, or null: {@code cache=off}, no agent jar (classes directory), or an unusable directory. */
  static InstrumentedClassCache open(AgentOptions options, String agentJar, PrintStream warnings) {
    if (AgentOptions.CACHE_OFF.equals(options.cache()) || agentJar == null) {
      return null;
    }
    File root = options.cache() != null ? new File(options.cache()) : defaultRoot();
    if (root == null) {
      return null;
    }
    byte[] jar;
    try (FileInputStream in = new FileInputStream(agentJar)) {
      jar = in.readAllBytes();
    } catch (IOException e) {
      warnings.println("racetriage agent: WARNING: cannot read the agent jar " + agentJar + " (" + e
          + "); classes are instrumented without a cache");
      return null;
    }
    StringBuilder config = new StringBuilder(options.mode());
    if (options.jumble() != null) {
      config.append("|fields=").append(String.join(",", options.jumble().fields()));
    }
    if (dev.racetriage.agent.instrument.ContainerModel.enabled()) {
      config.append("|containers"); // container calls are instrumented: another class file
    }
    if (options.predict()) {
      config.append("|predict"); // transparent synchronized blocks call another hook: another class file
    }
    config.append("|jdk=").append(System.getProperty("java.vm.vendor")).append(' ')
        .append(System.getProperty("java.runtime.version")).append(' ').append(System.getProperty("java.home"));
    String identity = "v" + LAYOUT + "-" + hex(jar) + "-" + hex(config.toString().getBytes(StandardCharsets.UTF_8));
    return InstrumentedClassCache.open(root, identity, warnings);
  }

  /**
   * True for the name of an identity directory this class makes under a cache root ({@code v<layout>-<jar>-<config>},
   * both hexadecimal): what the runner's pruning may delete (runner.fork.ClassCacheJanitor), nothing else.
   */
  public static boolean isIdentity(String name) {
    return name.matches("v\\d+-[0-9a-f]+-[0-9a-f]+");
  }

  /**
   * {@code $XDG_CACHE_HOME/racetriage/agent-classes}, else {@code ~/.cache/racetriage/agent-classes}; null if neither.
   */
  public static File defaultRoot() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    if (xdg != null && !xdg.isBlank()) {
      return new File(xdg, "racetriage/agent-classes");
    }
    String home = System.getProperty("user.home");
    return home == null || home.isBlank() ? null : new File(home, ".cache/racetriage/agent-classes");
  }

  static String describe(InstrumentedClassCache cache) {
    if (cache == null) {
      return "; no class cache";
    }
    int[] c = cache.counts();
    return "; class cache " + cache.directory().getAbsolutePath() + ": " + c[0] + " hits, " + c[1] + " misses, "
        + c[2] + " stale, " + c[3] + " damaged, " + c[4] + " stored";
  }

  private static String hex(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    Adler32 adler = new Adler32();
    adler.update(bytes);
    return Long.toHexString(crc.getValue() << 32 | adler.getValue()) + Integer.toHexString(bytes.length);
  }
}
