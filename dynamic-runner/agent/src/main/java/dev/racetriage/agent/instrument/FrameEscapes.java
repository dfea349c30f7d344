package dev.racetriage.agent.instrument;

import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.analysis.BasicInterpreter;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Interpreter;
import org.objectweb.asm.tree.analysis.Value;

/**
 * The data flow both intraprocedural escape analyses share ({@link ConfinedContainers}, {@link ConfinedArrays}): a
 * value is the set of candidate allocations it may be, plus whether it may be anything else; copies keep the set,
 * merges unite it, a return lets it escape. Subclasses say which instructions allocate a candidate and which uses let
 * one escape ({@link #escape}); {@link #confined} then tells a value that may only be candidates that never escaped.
 */
abstract class FrameEscapes extends Interpreter<FrameEscapes.Alloc> {
  /** Operand shapes (sizes) for the values that are not candidates. */
  final BasicInterpreter sizes = new BasicInterpreter();
  private final Set<AbstractInsnNode> escaped = new HashSet<>();

  FrameEscapes() {
    super(Opcodes.ASM9);
  }

  /**
   * Frames the analysis may hold at once (one per instruction, each as wide as the method's locals and stack): beyond
   * it a method keeps all its checks rather than cost the class's loading seconds and the heap hundreds of megabytes
   * (a generated parser's method of 30,000 instructions and 300 locals).
   */
  static final long MAX_FRAME_VALUES = 2_000_000;

  /** True if {@code method} is too large to analyse (see {@link #MAX_FRAME_VALUES}). */
  static boolean tooLarge(org.objectweb.asm.tree.MethodNode method) {
    return (long) method.instructions.size() * (method.maxLocals + method.maxStack) > MAX_FRAME_VALUES;
  }

  /** The candidate allocations a value may be, and whether it may be any other object. */
  static final class Alloc implements Value {
    final int size;
    final Set<AbstractInsnNode> news;
    final boolean other;

    Alloc(int size, Set<AbstractInsnNode> news, boolean other) {
      this.size = size;
      this.news = news;
      this.other = other;
    }

    @Override
    public int getSize() {
      return size;
    }

    boolean tracked() {
      return !news.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Alloc a && a.size == size && a.other == other && a.news.equals(news);
    }

    @Override
    public int hashCode() {
      return news.hashCode() * 31 + size * 2 + (other ? 1 : 0);
    }
  }

  /** True if {@code value} may only be candidates, none of which escaped. */
  boolean confined(Alloc value) {
    if (value == null || value.other || !value.tracked()) {
      return false;
    }
    for (AbstractInsnNode n : value.news) {
      if (escaped.contains(n)) {
        return false;
      }
    }
    return true;
  }

  /** The candidate allocated by {@code insn}. */
  static Alloc candidate(AbstractInsnNode insn) {
    return new Alloc(1, Set.of(insn), false);
  }

  /** {@code null}: no object at all, so confined with anything. */
  static Alloc nothing() {
    return new Alloc(1, Collections.emptySet(), false);
  }

  /** Any other value of the shape {@code shape} (null for no value). */
  static Alloc other(BasicValue shape) {
    return shape == null ? null : new Alloc(shape.getSize(), Collections.emptySet(), true);
  }

  /** Every candidate {@code value} may be escapes. */
  void escape(Alloc value) {
    if (value != null && value.tracked()) {
      escaped.addAll(value.news);
    }
  }

  @Override
  public final Alloc newValue(Type type) {
    if (type == Type.VOID_TYPE) {
      return null;
    }
    return new Alloc(type == null ? 1 : type.getSize(), Collections.emptySet(), true);
  }

  @Override
  public final Alloc copyOperation(AbstractInsnNode insn, Alloc value) {
    return value;
  }

  @Override
  public final void returnOperation(AbstractInsnNode insn, Alloc value, Alloc expected) {
    escape(value);
  }

  @Override
  public final Alloc merge(Alloc a, Alloc b) {
    if (a.equals(b) || (a.other || !b.other) && a.news.containsAll(b.news) && a.size == b.size) {
      return a;
    }
    Set<AbstractInsnNode> news = new HashSet<>(a.news);
    news.addAll(b.news);
    return new Alloc(Math.min(a.size, b.size), news, a.other || b.other);
  }
}
