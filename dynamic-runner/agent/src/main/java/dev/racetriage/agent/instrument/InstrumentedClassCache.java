package dev.racetriage.agent.instrument;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Instrumented class files kept between runs, so a run whose classes were all seen before never loads or runs ASM
 * (interpreted at start-up, then compiled by the JIT, ASM was most of the agent's start-up cost).
 *
 * <p>Layout: one directory per agent identity ({@code dir}: the agent jar's digest and every option and JDK property
 * that changes what the instrumenter emits — chosen by the caller), one file per (class kind, class file digest,
 * length). An entry holds the original class file, compared byte for byte on lookup (a digest collision can never
 * substitute another class), the digests of the other classes the instrumentation consulted (superclasses, field
 * declarations: a changed one makes the entry stale), what {@link ClassHierarchy} should learn about the class, and
 * the {@link IdTemplate} — instrumented bytes whose field and site ids are placeholders, bound to each run's ids.
 * A CRC-32 trailer catches truncated or damaged files: such an entry is ignored with a warning and rewritten.
 * Entries are written to a temporary file and renamed into place, so concurrent JVMs sharing the directory see
 * whole entries or none.
 *
 * <p>Only {@code java.io} and {@code java.util.zip}, both loaded before any agent: this runs inside the transformer.
 */
public final class InstrumentedClassCache {
  private static final int MAGIC = 0x52544343; // "RTCC"
  private static final int FORMAT = 1;

  private final File dir;
  private final PrintStream warnings;
  private final ClassFileDigests digests = new ClassFileDigests();
  private int hits;
  private int misses;
  private int stale;
  private int corrupt;
  private int stored;
  private boolean storeFailureReported;

  private InstrumentedClassCache(File dir, PrintStream warnings) {
    this.dir = dir;
    this.warnings = warnings;
  }

  /**
   * The cache in {@code root/identity}, created if needed; null (after a warning) when the directory cannot be
   * created — the agent then instruments every class, as without a cache.
   */
  public static InstrumentedClassCache open(File root, String identity, PrintStream warnings) {
    File dir = new File(root, identity);
    if (!dir.isDirectory() && !dir.mkdirs() && !dir.isDirectory()) {
      warnings.println("racetriage agent: WARNING: cannot create the class cache directory " + dir.getAbsolutePath()
          + "; classes are instrumented without a cache (set cache=DIR to a writable directory, or cache=off)");
      return null;
    }
    // its last use, for the runner's pruning of directories no run has used for weeks (fork.ClassCacheJanitor)
    dir.setLastModified(System.currentTimeMillis());
    return new InstrumentedClassCache(dir, warnings);
  }

  public File directory() {
    return dir;
  }

  /** The cached instrumentation of {@code classFile}, if an intact entry exists whose dependencies are unchanged. */
  CompiledClass lookup(char variant, ClassLoader loader, byte[] classFile) {
    File file = entryFile(variant, classFile);
    byte[] data;
    try (FileInputStream in = new FileInputStream(file)) {
      data = in.readAllBytes();
    } catch (IOException e) { // most often: no entry yet
      count(0);
      return null;
    }
    CompiledClass entry;
    try {
      entry = decode(data, classFile);
    } catch (IOException | RuntimeException e) {
      count(3);
      warnings.println("racetriage agent: WARNING: ignoring the damaged class cache entry " + file.getAbsolutePath()
          + " (" + e.getMessage() + "); the class is instrumented again and the entry rewritten");
      return null;
    }
    if (entry == null) { // another class with the same digest and length: keep it, instrument this one
      count(0);
      return null;
    }
    for (int i = 0; i < entry.dependencyNames().length; i++) {
      if (digests.of(loader, entry.dependencyNames()[i]) != entry.dependencyDigests()[i]) {
        count(2);
        return null;
      }
    }
    count(1);
    return entry;
  }

  /** Keeps the instrumentation of {@code classFile} for later runs (if it is reusable); never throws. */
  void store(char variant, byte[] classFile, CompiledClass compiled) {
    if (!compiled.reusable()) {
      return;
    }
    File file = entryFile(variant, classFile);
    // unique across the JVMs sharing the directory: thread ids repeat between JVMs, identity hashes and times rarely
    File temp = new File(dir, file.getName() + ".tmp-" + Integer.toHexString(System.identityHashCode(new Object()))
        + "-" + Thread.currentThread().getId() + "-" + System.nanoTime());
    try {
      try (FileOutputStream out = new FileOutputStream(temp)) {
        out.write(encode(classFile, compiled));
      }
      if (!temp.renameTo(file)) {
        throw new IOException("cannot rename " + temp + " to " + file);
      }
      count(4);
    } catch (IOException | RuntimeException e) {
      temp.delete();
      reportStoreFailure(e);
    }
  }

  /** The digests of {@code names} as {@code loader} sees them now, for {@link CompiledClass}. */
  long[] digestsOf(ClassLoader loader, String[] names) {
    long[] out = new long[names.length];
    for (int i = 0; i < names.length; i++) {
      out[i] = digests.of(loader, names[i]);
    }
    return out;
  }

  /** "hits/misses/stale/damaged/stored" counts, for the verbose start-up line and tests. */
  public synchronized int[] counts() {
    return new int[] {hits, misses, stale, corrupt, stored};
  }

  private synchronized void count(int which) {
    switch (which) {
      case 0 -> misses++;
      case 1 -> hits++;
      case 2 -> stale++;
      case 3 -> corrupt++;
      default -> stored++;
    }
  }

  private synchronized void reportStoreFailure(Exception e) {
    if (!storeFailureReported) {
      storeFailureReported = true;
      warnings.println("racetriage agent: WARNING: cannot write to the class cache " + dir.getAbsolutePath() + " ("
          + e + "); instrumented classes are not kept for the next run");
    }
  }

  /** @param variant what the instrumenter made of the class: its kind's initial, or 'S' for a JDK class with a slot */
  File entryFile(char variant, byte[] classFile) {
    long digest = ClassFileDigests.digest(classFile);
    return new File(dir, variant + "-" + Long.toHexString(digest) + "-"
        + Integer.toHexString(classFile.length) + ".rtc");
  }

  // ---- entry format: header, original class file, dependencies, class info, template, CRC-32 of all before ----

  static byte[] encode(byte[] classFile, CompiledClass compiled) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(classFile.length * 3 + 256);
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(MAGIC);
    out.writeInt(FORMAT);
    out.writeInt(classFile.length);
    out.write(classFile);
    out.writeInt(compiled.dependencyNames().length);
    for (int i = 0; i < compiled.dependencyNames().length; i++) {
      out.writeUTF(compiled.dependencyNames()[i]);
      out.writeLong(compiled.dependencyDigests()[i]);
    }
    ClassInfo info = compiled.info();
    out.writeBoolean(info != null);
    if (info != null) {
      out.writeUTF(info.name());
      out.writeBoolean(info.superName() != null);
      if (info.superName() != null) {
        out.writeUTF(info.superName());
      }
      out.writeInt(info.interfaces().size());
      for (String itf : info.interfaces()) {
        out.writeUTF(itf);
      }
      out.writeBoolean(info.isInterface());
      out.writeInt(info.fieldAccess().size());
      for (Map.Entry<String, Integer> field : info.fieldAccess().entrySet()) {
        out.writeUTF(field.getKey());
        out.writeInt(field.getValue());
      }
      out.writeBoolean(info.quietInit());
    }
    IdTemplate template = compiled.template();
    out.writeInt(template.symbols().size());
    for (IdSymbol symbol : template.symbols()) {
      symbol.write(out);
    }
    out.writeInt(template.patchOffsets().length);
    for (int i = 0; i < template.patchOffsets().length; i++) {
      out.writeInt(template.patchOffsets()[i]);
      out.writeInt(template.patchSymbols()[i]);
    }
    out.writeInt(template.bytes().length);
    out.write(template.bytes());
    out.flush();
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(bytes.toByteArray());
    out.writeLong(crc.getValue());
    return bytes.toByteArray();
  }

  /** The entry for {@code classFile}, or null if the entry is another class's; throws if it is damaged. */
  static CompiledClass decode(byte[] data, byte[] classFile) throws IOException {
    if (data.length < 20) {
      throw new IOException("truncated: " + data.length + " bytes");
    }
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(data, 0, data.length - 8);
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
    in.skipBytes(data.length - 8);
    if (in.readLong() != crc.getValue()) {
      throw new IOException("checksum mismatch (truncated or overwritten)");
    }
    in = new DataInputStream(new ByteArrayInputStream(data, 0, data.length - 8));
    try {
      if (in.readInt() != MAGIC || in.readInt() != FORMAT) {
        throw new IOException("not a racetriage class cache entry of format " + FORMAT);
      }
      int length = in.readInt();
      if (length != classFile.length || !Arrays.equals(data, 12, 12 + length, classFile, 0, length)) {
        return null;
      }
      in.skipBytes(length);
      int dependencies = checkedCount(in.readInt(), data.length);
      String[] names = new String[dependencies];
      long[] digests = new long[dependencies];
      for (int i = 0; i < dependencies; i++) {
        names[i] = in.readUTF();
        digests[i] = in.readLong();
      }
      ClassInfo info = null;
      if (in.readBoolean()) {
        String name = in.readUTF();
        String superName = in.readBoolean() ? in.readUTF() : null;
        int interfaceCount = checkedCount(in.readInt(), data.length);
        List<String> interfaces = new ArrayList<>(interfaceCount);
        for (int i = 0; i < interfaceCount; i++) {
          interfaces.add(in.readUTF());
        }
        boolean isInterface = in.readBoolean();
        int fieldCount = checkedCount(in.readInt(), data.length);
        Map<String, Integer> fields = new HashMap<>();
        for (int i = 0; i < fieldCount; i++) {
          fields.put(in.readUTF(), in.readInt());
        }
        info = new ClassInfo(name, superName, interfaces, isInterface, fields, in.readBoolean());
      }
      int symbolCount = checkedCount(in.readInt(), data.length);
      List<IdSymbol> symbols = new ArrayList<>(symbolCount);
      for (int i = 0; i < symbolCount; i++) {
        symbols.add(IdSymbol.read(in));
      }
      int patchCount = checkedCount(in.readInt(), data.length);
      int[] offsets = new int[patchCount];
      int[] symbolOf = new int[patchCount];
      for (int i = 0; i < patchCount; i++) {
        offsets[i] = in.readInt();
        symbolOf[i] = in.readInt();
      }
      byte[] bytes = new byte[checkedCount(in.readInt(), data.length)];
      in.readFully(bytes);
      for (int i = 0; i < patchCount; i++) {
        if (offsets[i] < 0 || offsets[i] > bytes.length - 4 || symbolOf[i] < 0 || symbolOf[i] >= symbolCount) {
          throw new IOException("patch " + i + " out of range");
        }
      }
      return new CompiledClass(new IdTemplate(bytes, List.copyOf(symbols), offsets, symbolOf), info, names, digests);
    } catch (EOFException e) {
      throw new IOException("truncated entry");
    }
  }

  private static int checkedCount(int count, int limit) throws IOException {
    if (count < 0 || count > limit) {
      throw new IOException("implausible count " + count);
    }
    return count;
  }
}
