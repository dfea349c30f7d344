package dev.racetriage.agent.instrument;

import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicInterpreter;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.Interpreter;
import org.objectweb.asm.tree.analysis.Value;

/**
 * The data flow both intraprocedural escape analyses share ({@link ConfinedContainers}, {@link ConfinedArrays}): a
 * value is the set of candidate allocations it may be, plus whether it may be anything else; copies keep the set,
 * merges unite it. A candidate escapes when a value that may be it is stored to a field, a static or an array element,
 * returned or thrown; being indexed, measured, compared, tested for null, locked or kept in a local keeps it confined.
 * Subclasses say which instructions allocate a candidate and which call arguments let one escape
 * ({@link #naryOperation}); {@link #confined} then tells a value that may only be candidates that never escaped.
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
  static boolean tooLarge(MethodNode method) {
    return (long) method.instructions.size() * (method.maxLocals + method.maxStack) > MAX_FRAME_VALUES;
  }

  /**
   * The frames of {@code method} under this analysis, or null when there is nothing to find (no instruction allocates
   * a candidate: the usual case), the method is {@link #tooLarge}, or it cannot be analysed here (an unusual
   * subroutine): every access of such a method keeps its check.
   */
  final Frame<Alloc>[] analyze(String owner, MethodNode method) {
    boolean allocates = false;
    for (AbstractInsnNode insn = method.instructions.getFirst(); insn != null && !allocates; insn = insn.getNext()) {
      allocates = allocatesCandidate(insn);
    }
    if (!allocates || tooLarge(method)) {
      return null;
    }
    try {
      return new Analyzer<>(this).analyze(owner, method);
    } catch (AnalyzerException | RuntimeException e) {
      return null;
    }
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

  /** True if {@code insn} allocates a candidate ({@code new}, or {@code newarray}, whose operand is a length). */
  abstract boolean allocatesCandidate(AbstractInsnNode insn);

  @Override
  public final Alloc newOperation(AbstractInsnNode insn) throws AnalyzerException {
    if (allocatesCandidate(insn)) {
      return candidate(insn);
    }
    if (insn.getOpcode() == Opcodes.ACONST_NULL) {
      return nothing();
    }
    return other(sizes.newOperation(insn));
  }

  @Override
  public final Alloc unaryOperation(AbstractInsnNode insn, Alloc value) throws AnalyzerException {
    if (allocatesCandidate(insn)) {
      return candidate(insn);
    }
    switch (insn.getOpcode()) {
      case Opcodes.CHECKCAST:
        return value;
      case Opcodes.IFNULL, Opcodes.IFNONNULL, Opcodes.MONITORENTER, Opcodes.MONITOREXIT:
        return null;
      case Opcodes.INSTANCEOF, Opcodes.ARRAYLENGTH:
        break;
      default:
        escape(value); // putstatic, athrow, areturn's kin, getfield of a candidate (not a JDK container's), …
    }
    return other(sizes.unaryOperation(insn, BasicValue.REFERENCE_VALUE));
  }

  @Override
  public final Alloc binaryOperation(AbstractInsnNode insn, Alloc value1, Alloc value2) throws AnalyzerException {
    int op = insn.getOpcode();
    if (!ConfinedArrays.isArrayLoad(op) && op != Opcodes.IF_ACMPEQ && op != Opcodes.IF_ACMPNE) {
      escape(value1); // putfield: its object
      escape(value2); // putfield: its value
    } // an array load's array stays confined; its index is never a candidate
    return other(sizes.binaryOperation(insn, BasicValue.REFERENCE_VALUE, BasicValue.REFERENCE_VALUE));
  }

  @Override
  public final Alloc ternaryOperation(AbstractInsnNode insn, Alloc value1, Alloc value2, Alloc value3) {
    escape(value3); // a store's value escapes into the array; the array stored into (and its index) does not
    return null;
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
