package dev.racetriage.agent.instrument;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.zip.Adler32;
import java.util.zip.CRC32;

/**
 * 64-bit content digests of class files (CRC-32 and Adler-32 side by side, both native in the JDK), read as
 * resources of a class loader and remembered per loader (weakly, so loaders are not kept alive). The class cache
 * records the digests of the classes an instrumented class's bytes depend on and compares them on reuse.
 */
final class ClassFileDigests {
  /** The digest of a class file the loader cannot find. */
  static final long MISSING = 0L;

  private static final Object BOOT_KEY = new Object();
  private final Map<Object, Map<String, Long>> byLoader = new WeakHashMap<>();

  /** The digest of {@code internalName}'s class file as {@code loader} finds it, or {@link #MISSING}. */
  long of(ClassLoader loader, String internalName) {
    synchronized (byLoader) {
      Long known = cacheOf(loader).get(internalName);
      if (known != null) {
        return known;
      }
    }
    long digest = read(loader, internalName);
    synchronized (byLoader) {
      cacheOf(loader).put(internalName, digest);
    }
    return digest;
  }

  static long digest(byte[] bytes) {
    return digest(bytes, 0, bytes.length);
  }

  static long digest(byte[] bytes, int offset, int length) {
    CRC32 crc = new CRC32();
    crc.update(bytes, offset, length);
    Adler32 adler = new Adler32();
    adler.update(bytes, offset, length);
    long d = crc.getValue() << 32 | adler.getValue();
    return d == MISSING ? 1 : d;
  }

  private Map<String, Long> cacheOf(ClassLoader loader) {
    Object key = loader == null ? BOOT_KEY : loader;
    Map<String, Long> perLoader = byLoader.get(key); // no computeIfAbsent lambda: see ClassFilter.internal
    if (perLoader == null) {
      perLoader = new HashMap<>();
      byLoader.put(key, perLoader);
    }
    return perLoader;
  }

  private static long read(ClassLoader loader, String internalName) {
    String resource = internalName + ".class";
    try (InputStream in = loader != null ? loader.getResourceAsStream(resource)
        : ClassLoader.getSystemResourceAsStream(resource)) {
      return in == null ? MISSING : digest(in.readAllBytes());
    } catch (IOException | RuntimeException e) {
      return MISSING;
    }
  }
}
