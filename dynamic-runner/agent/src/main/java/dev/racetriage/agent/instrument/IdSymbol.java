package dev.racetriage.agent.instrument;

import dev.racetriage.agent.detect.SiteTable;
import dev.racetriage.agent.runtime.FieldRegistry;
import java.util.Objects;

/**
 * What an id baked into instrumented code stands for: a field ({@code declaringClass} internal form, {@code name})
 * or an access site ({@code className} binary form, {@code method}, {@code file}, {@code line}), or an owned-element
 * guard (one element load: a fresh cache index at every binding). The instrumenter emits a placeholder per symbol and
 * each run binds it to that run's id, so instrumented bytes do not depend on the order classes were loaded in — which
 * is what lets them be cached between runs.
 *
 * <p>equals/hashCode are written out (not a record): they run inside the class file transformer, where bootstrapping
 * the generated record methods would load classes mid-transform.
 */
public final class IdSymbol {
  public static final byte FIELD = 'F';
  public static final byte SITE = 'S';
  /**
   * An owned-element guard: one element load ({@code owner} binary form, {@code name} method and descriptor,
   * {@code line} its ordinal among the method's element accesses).
   */
  public static final byte GUARD = 'G';
  /** Guard ids handed out so far: each binding of a guard symbol takes a fresh one (a class is bound once per run). */
  private static final java.util.concurrent.atomic.AtomicInteger GUARDS =
      new java.util.concurrent.atomic.AtomicInteger();

  final byte kind;
  final String owner;
  final String name;
  final String file;
  final int line;

  private IdSymbol(byte kind, String owner, String name, String file, int line) {
    this.kind = kind;
    this.owner = owner;
    this.name = name;
    this.file = file;
    this.line = line;
  }

  static IdSymbol field(String declaringInternal, String name) {
    return new IdSymbol(FIELD, declaringInternal, name, null, 0);
  }

  static IdSymbol site(String className, String method, String file, int line) {
    return new IdSymbol(SITE, className, method, file, line);
  }

  static IdSymbol guard(String className, String method, int ordinal) {
    return new IdSymbol(GUARD, className, method, null, ordinal);
  }

  /** This run's id for the symbol, registering it. */
  int bind(SiteTable sites, FieldRegistry fields) {
    if (kind == GUARD) {
      return GUARDS.getAndIncrement() & 0xFFFFFF; // a cache index (Hooks.ownedElement): a wrap only shares one
    }
    return kind == FIELD ? fields.id(owner, name) : sites.register(owner, name, file, line);
  }

  void write(java.io.DataOutput out) throws java.io.IOException {
    out.writeByte(kind);
    out.writeUTF(owner);
    out.writeUTF(name);
    out.writeBoolean(file != null);
    if (file != null) {
      out.writeUTF(file);
    }
    out.writeInt(line);
  }

  static IdSymbol read(java.io.DataInput in) throws java.io.IOException {
    byte kind = in.readByte();
    if (kind != FIELD && kind != SITE && kind != GUARD) {
      throw new java.io.IOException("unknown id symbol kind " + kind);
    }
    String owner = in.readUTF();
    String name = in.readUTF();
    String file = in.readBoolean() ? in.readUTF() : null;
    return new IdSymbol(kind, owner, name, file, in.readInt());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IdSymbol s && kind == s.kind && line == s.line && owner.equals(s.owner)
        && name.equals(s.name) && Objects.equals(file, s.file);
  }

  @Override
  public int hashCode() {
    return ((kind * 31 + owner.hashCode()) * 31 + name.hashCode()) * 31 + Objects.hashCode(file) * 7 + line;
  }

  @Override
  public String toString() {
    return kind == FIELD ? owner.replace('/', '.') + "." + name
        : kind == GUARD ? "guard " + owner + "." + name + "#" + line : owner + "." + name + "(" + file + ":" + line + ")";
  }
}
