package dev.racetriage.agent.instrument;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.SourceInterpreter;
import org.objectweb.asm.tree.analysis.SourceValue;

/**
 * Finds the counted loops whose array element checks {@link LoopCheckHoister} may move to the loop's exits (BigFoot's
 * check placement, narrowed to the simplest shape). A loop qualifies when
 * <ul>
 * <li>no exception handler of the method starts inside it;</li>
 * <li>an int local {@code v} (the induction variable) changes in it only through one {@code iinc v, ±1} that runs in
 * every iteration (it dominates every back edge);</li>
 * <li>nothing in it can synchronise or run code the agent does not see: only local, arithmetic, branch, array and
 * non-volatile field instructions (statics of the method's own class only, which is initialised already) — no call
 * but to {@code Math}/{@code StrictMath} (not {@code random}) or a box's bit operation ({@link QuietCallees#pureMath}),
 * to a {@code String} query, or to a static or private
 * method of the class that is as quiet and stores nothing ({@link QuietCallees}), no invokedynamic, no allocation but
 * primitive arrays, no monitor, no athrow, no class constants or casts.</li>
 * </ul>
 * Inner loops are allowed (they qualify or not on their own), but the {@code iinc} and the hoisted accesses must lie on
 * no cycle of the body without its header, so each runs exactly once per iteration. A qualifying loop's element
 * access is hoisted when its array is an {@code aload a} of a local {@code a} never stored in the loop (or a guarded
 * row, see {@link Access}), its index is exactly the value of {@code v} (an {@code iload v} in the same straight-line
 * stretch, with the {@code iinc} not in between), and it runs in every iteration (it dominates every back edge), and
 * when dominance fixes whether the iteration that leaves at each exit ran it. Then the indices it
 * touches in one execution of the loop are exactly a contiguous range computed from {@code v} at loop entry and at the
 * exit taken: see {@link Exit} and {@link Access}. Everything about the loop is decided before anything is changed.
 */
final class CountedLoops {

  /**
   * A hoisted element access. Its array is local {@code arrayLocal}, or (when {@code row} is non-null, arrayLocal -1)
   * the value of the {@code aaload} {@code row} of a loop-invariant local at a loop-invariant index ({@code a[i][j]}):
   * that value is the same in every iteration unless some thread stores into {@code a[i]} meanwhile, so the
   * rewritten loop compares it with the first iteration's and drops the range checks if it ever differs.
   */
  record Access(AbstractInsnNode insn, int arrayLocal, AbstractInsnNode row, boolean write, boolean afterIncrement,
                Index fixed, int offset, int offsetLocal, int offsetSign, FieldInsnNode field, String declaring) {
    /** An access indexed by {@code v + c} (no invariant local in the index). */
    Access(AbstractInsnNode insn, int arrayLocal, AbstractInsnNode row, boolean write, boolean afterIncrement,
           Index fixed, int offset) {
      this(insn, arrayLocal, row, write, afterIncrement, fixed, offset, -1, 0, null, null);
    }

    /**
     * A read of a non-volatile, non-final field ({@code field}, declared by {@code declaring}) of the object in local
     * {@code receiver} (-1 for a static of the method's own class), which the loop reads in every iteration and never
     * writes: one location, checked once at the exit if the loop ran the read, as an element at a fixed index is.
     */
    static Access fieldRead(FieldInsnNode field, String declaring, int receiver, boolean afterIncrement) {
      return new Access(field, receiver, null, false, afterIncrement, new Index(-1, 0), 0, -1, 0, field, declaring);
    }
  }

  /** The largest positive stride of a hoisted loop ({@code iinc v, k}, 1 ≤ k ≤ this). */
  static final int MAX_STRIDE = 64;

  private static boolean hoistableStride(int incr) {
    return incr == -1 || (incr >= 1 && incr <= MAX_STRIDE);
  }

  /**
   * The index of an access that touches one element in every iteration (a loop-invariant local, or a constant): the
   * exit checks that element once if the access ran at all. Null for an access indexed by the induction variable.
   */
  record Index(int local, int constant) {
  }

  /**
   * A normal way out of the loop: a jump or switch edge to {@code target}, the fall-through after {@code from}, or the
   * return {@code from} itself. {@code afterIncrement}: the iteration that leaves here has run the {@code iinc};
   * {@code executed}: for each hoisted access (same order as {@link Loop#accesses}), whether the leaving iteration ran
   * it.
   */
  record Exit(AbstractInsnNode from, ExitKind kind, LabelNode target, boolean afterIncrement, boolean[] executed) {
  }

  enum ExitKind { JUMP, FALL_THROUGH, RETURN }

  /** A way into the loop header from outside: a jump from {@code from} or the fall-through into the header. */
  record Entry(AbstractInsnNode from, boolean jump) {
  }

  /**
   * @param catchAll true when no handler of the method covers the loop, so a handler that records the completed
   *                 iterations and rethrows changes nothing the program can see; {@code bodyRuns} are its ranges
   */
  record Loop(int induction, int stride, AbstractInsnNode header, List<Entry> entries, List<Access> accesses,
              List<Exit> exits, boolean catchAll, List<AbstractInsnNode[]> bodyRuns) {
  }

  private final String owner;
  private final MethodNode method;
  private final ClassContext ctx;
  private final InsnList insns;
  private final int n;
  private final BitSet[] succ;
  private final BitSet[] pred;
  private final BitSet[] exceptionSucc;
  private final BitSet[] exceptionPred;
  private Frame<SourceValue>[] frames;
  private int[] idom;

  private CountedLoops(String owner, MethodNode method, ClassContext ctx) {
    this.owner = owner;
    this.method = method;
    this.ctx = ctx;
    this.insns = method.instructions;
    this.n = insns.size();
    this.succ = new BitSet[n];
    this.pred = new BitSet[n];
    this.exceptionSucc = new BitSet[n];
    this.exceptionPred = new BitSet[n];
    for (int i = 0; i < n; i++) {
      succ[i] = new BitSet();
      pred[i] = new BitSet();
      exceptionSucc[i] = new BitSet();
      exceptionPred[i] = new BitSet();
    }
  }

  /** The hoistable loops of the method (empty when there are none or the method cannot be analysed). */
  static List<Loop> find(String owner, MethodNode method, ClassContext ctx) {
    if (!worthAnalysing(method)) {
      return List.of();
    }
    try {
      return new CountedLoops(owner, method, ctx).loops();
    } catch (AnalyzerException | RuntimeException e) {
      return List.of(); // not analysable here: every access keeps its own check
    }
  }

  /** A cheap scan: an {@code iinc ±1}, an array access and a backward jump, and no subroutines. */
  private static boolean worthAnalysing(MethodNode method) {
    boolean inc = false;
    boolean array = false;
    for (AbstractInsnNode insn : method.instructions) {
      int op = insn.getOpcode();
      if (op == Opcodes.JSR || op == Opcodes.RET) {
        return false;
      }
      if (insn instanceof IincInsnNode i && hoistableStride(i.incr)) {
        inc = true;
      }
      if (op == Opcodes.ISTORE && insn.getPrevious() != null
          && (insn.getPrevious().getOpcode() == Opcodes.IADD || insn.getPrevious().getOpcode() == Opcodes.ISUB)) {
        inc = true; // perhaps v = v + k, as older compilers wrote j += 2 (see increment)
      }
      if (isArrayAccess(op)) {
        array = true;
      }
    }
    return inc && array;
  }

  static boolean isArrayAccess(int op) {
    return (op >= Opcodes.IALOAD && op <= Opcodes.SALOAD) || (op >= Opcodes.IASTORE && op <= Opcodes.SASTORE);
  }

  private List<Loop> loops() throws AnalyzerException {
    Analyzer<SourceValue> analyzer = new Analyzer<>(new ValueSources()) {
      @Override
      protected void newControlFlowEdge(int insn, int successor) {
        succ[insn].set(successor);
        pred[successor].set(insn);
      }

      @Override
      protected boolean newControlFlowExceptionEdge(int insn, TryCatchBlockNode tcb) {
        int handler = insns.indexOf(tcb.handler);
        exceptionSucc[insn].set(handler);
        exceptionPred[handler].set(insn);
        return true;
      }
    };
    frames = analyzer.analyze(owner, method);
    idom = dominators();
    List<Loop> loops = new ArrayList<>();
    BitSet headers = new BitSet();
    for (int u = 0; u < n; u++) {
      for (int h = succ[u].nextSetBit(0); h >= 0; h = succ[u].nextSetBit(h + 1)) {
        if (frames[u] != null && dominates(h, u)) {
          headers.set(h);
        }
      }
    }
    for (int h = headers.nextSetBit(0); h >= 0; h = headers.nextSetBit(h + 1)) {
      Loop loop = loop(h);
      if (loop != null) {
        loops.add(loop);
      }
    }
    return loops;
  }

  // ---- one loop ----

  private Loop loop(int h) {
    BitSet latches = new BitSet();
    for (int u = pred[h].nextSetBit(0); u >= 0; u = pred[h].nextSetBit(u + 1)) {
      if (frames[u] != null && dominates(h, u)) {
        latches.set(u);
      }
    }
    BitSet body = body(h, latches);
    if (!quiet(body)) {
      return null;
    }
    for (int i = body.nextSetBit(0); i >= 0; i = body.nextSetBit(i + 1)) {
      BitSet handlers = exceptionSucc[i];
      if (handlers.intersects(body)) {
        return null; // a handler inside the loop: iterations need not run the body in order
      }
    }
    for (int i = body.nextSetBit(0); i >= 0; i = body.nextSetBit(i + 1)) {
      int[] inc = increment(i);
      if (inc != null && hoistableStride(inc[1])) {
        Loop loop = loop(h, body, latches, i, inc[0], inc[1]);
        if (loop != null) {
          return loop;
        }
      }
    }
    return null;
  }

  /**
   * The local and step of an increment at {@code i}: an {@code iinc v, k}, or {@code istore v} of {@code iload v}
   * plus or minus a constant ({@code v = v + k}: how the Java Grande suite's compiler wrote {@code j += 2}); the value
   * changes at the store. Null for anything else.
   */
  private int[] increment(int i) {
    AbstractInsnNode insn = insns.get(i);
    if (insn instanceof IincInsnNode inc) {
      return new int[] {inc.var, inc.incr};
    }
    if (!(insn instanceof VarInsnNode store) || store.getOpcode() != Opcodes.ISTORE || frames[i] == null) {
      return null;
    }
    AbstractInsnNode sum = onlySource(frames[i].getStack(frames[i].getStackSize() - 1));
    if (sum == null || (sum.getOpcode() != Opcodes.IADD && sum.getOpcode() != Opcodes.ISUB)) {
      return null;
    }
    VarInsnNode load = shiftedLoad(sum, store.var);
    if (load == null) {
      return null;
    }
    Frame<SourceValue> f = frames[insns.indexOf(sum)];
    AbstractInsnNode left = onlySource(f.getStack(f.getStackSize() - 2));
    AbstractInsnNode right = onlySource(f.getStack(f.getStackSize() - 1));
    int k = constant(left == load ? right : left);
    return new int[] {store.var, sum.getOpcode() == Opcodes.ISUB ? -k : k};
  }

  private Loop loop(int h, BitSet body, BitSet latches, int incIndex, int v, int stride) {
    for (int i = body.nextSetBit(0); i >= 0; i = body.nextSetBit(i + 1)) {
      if (i != incIndex && writesLocal(insns.get(i), v)) {
        return null; // v changes otherwise too
      }
    }
    if (!dominatesAll(incIndex, latches) || cyclic(incIndex, h, body)) {
      return null; // some iteration skips the increment, or it sits in an inner loop
    }
    List<Access> accesses = new ArrayList<>();
    for (int i = body.nextSetBit(0); i >= 0; i = body.nextSetBit(i + 1)) {
      Access a = access(i, body, latches, incIndex, v);
      if (a != null && !cyclic(i, h, body)) {
        accesses.add(a);
      }
    }
    if (accesses.isEmpty()) {
      return null;
    }
    List<Exit> exits = exits(h, body, incIndex, accesses);
    if (exits == null || accesses.isEmpty()) {
      return null;
    }
    List<Entry> entries = entries(h, body);
    if (entries == null) {
      return null;
    }
    // an inner loop's own catch-all would come first and rethrow outside this one's ranges: none for outer loops
    boolean catchAll = notCoveredByHandlers(body) && innermost(h, body);
    return new Loop(v, stride, insns.get(h), entries, accesses, exits, catchAll, catchAll ? runs(body) : List.of());
  }

  /** The element access at {@code i} if it can be hoisted, else null. */
  private Access access(int i, BitSet body, BitSet latches, int incIndex, int v) {
    AbstractInsnNode insn = insns.get(i);
    int op = insn.getOpcode();
    if (op == Opcodes.GETFIELD || op == Opcodes.GETSTATIC) {
      return fieldRead(i, body, latches, incIndex);
    }
    if (!isArrayAccess(op) || frames[i] == null || !dominatesAll(i, latches)) {
      return null;
    }
    boolean write = op >= Opcodes.IASTORE;
    Frame<SourceValue> f = frames[i];
    int top = f.getStackSize() - (write ? 1 : 0);
    AbstractInsnNode arrayLoad = onlySource(f.getStack(top - 2));
    AbstractInsnNode indexLoad = onlySource(f.getStack(top - 1));
    int start = Integer.MAX_VALUE; // the straight-line stretch that must end at the access
    Index fixed = null;
    int offset = 0;
    int offsetLocal = -1;
    int offsetSign = 0;
    VarInsnNode shifted = indexLoad == null ? null : shiftedLoad(indexLoad, v);
    VarInsnNode[] byLocal = indexLoad == null || shifted != null ? null : shiftedByLocal(indexLoad, v, body);
    if (indexLoad instanceof VarInsnNode x && x.getOpcode() == Opcodes.ILOAD && x.var == v) {
      start = insns.indexOf(x);
    } else if (byLocal != null) { // v + l, l + v or v - l, l a local the loop never stores: the range shifts by l
      start = Math.min(insns.indexOf(byLocal[0]), insns.indexOf(byLocal[1]));
      offsetLocal = byLocal[1].var;
      offsetSign = indexLoad.getOpcode() == Opcodes.ISUB ? -1 : 1;
    } else if (shifted != null) { // v + c or v - c: the range shifts by the constant
      start = insns.indexOf(shifted);
      Frame<SourceValue> at = frames[insns.indexOf(indexLoad)];
      int c = constant(onlySource(at.getStack(at.getStackSize() - 1))) != null
          ? constant(onlySource(at.getStack(at.getStackSize() - 1)))
          : constant(onlySource(at.getStack(at.getStackSize() - 2)));
      offset = indexLoad.getOpcode() == Opcodes.ISUB ? -c : c;
    } else if (indexLoad instanceof VarInsnNode x && x.getOpcode() == Opcodes.ILOAD && invariant(x, body)) {
      fixed = new Index(x.var, 0);
    } else if (constant(indexLoad) != null) {
      fixed = new Index(-1, constant(indexLoad));
    } else {
      return null;
    }
    int arrayLocal = -1;
    AbstractInsnNode row = null;
    if (arrayLoad instanceof VarInsnNode a && a.getOpcode() == Opcodes.ALOAD && invariant(a, body)) {
      arrayLocal = a.var;
    } else if (arrayLoad != null && invariantArraySource(arrayLoad, body)) {
      row = arrayLoad;
      start = Math.min(start, insns.indexOf(row));
    } else {
      return null;
    }
    if (start != Integer.MAX_VALUE) {
      if (start >= i || !body.get(start)) {
        return null;
      }
      for (int j = start + 1; j <= i; j++) {
        if (j == incIndex || pred[j].cardinality() != 1 || !pred[j].get(j - 1)) {
          return null; // v's value (the row) may not be the access's: not one straight-line stretch without the iinc
        }
      }
    }
    return new Access(insn, arrayLocal, row, write, dominates(incIndex, i), fixed, offset, offsetLocal, offsetSign,
        null, null);
  }

  /**
   * A field read the loop makes in every iteration of a location it never writes: a non-volatile, non-final field of
   * the object in a local the loop never stores (or a static of the method's own class), no {@code putfield} or
   * {@code putstatic} of a field of that name in the loop. Every iteration reads the same location with the same
   * clock (the loop does not synchronise), so one check at the exit stands for all of them.
   */
  private Access fieldRead(int i, BitSet body, BitSet latches, int incIndex) {
    FieldInsnNode f = (FieldInsnNode) insns.get(i);
    if (frames[i] == null || !dominatesAll(i, latches) || ClassFilter.isCoverageField(f.name)) {
      return null;
    }
    ClassHierarchy.ResolvedField field = ctx.hierarchy().resolveField(ctx.loader(), f.owner, f.name);
    if (field == null || field.isVolatile() || field.isFinal()) {
      return null;
    }
    for (int j = body.nextSetBit(0); j >= 0; j = body.nextSetBit(j + 1)) {
      if (insns.get(j) instanceof FieldInsnNode put && (put.getOpcode() == Opcodes.PUTFIELD
          || put.getOpcode() == Opcodes.PUTSTATIC) && put.name.equals(f.name)) {
        return null;
      }
    }
    int receiver = -1;
    if (f.getOpcode() == Opcodes.GETFIELD) {
      AbstractInsnNode load = onlySource(frames[i].getStack(frames[i].getStackSize() - 1));
      if (!(load instanceof VarInsnNode r) || r.getOpcode() != Opcodes.ALOAD || !invariant(r, body)) {
        return null;
      }
      receiver = r.var;
    }
    return Access.fieldRead(f, field.declaringClass(), receiver, dominates(incIndex, i));
  }

  /**
   * For an index computed as {@code v + l}, {@code l + v} or {@code v - l} with {@code l} an int local the loop never
   * stores ({@code dy[i + dy_off]}): the {@code iload v} and the {@code iload l}; else null.
   */
  private VarInsnNode[] shiftedByLocal(AbstractInsnNode arithmetic, int v, BitSet body) {
    int op = arithmetic.getOpcode();
    int at = insns.indexOf(arithmetic);
    if ((op != Opcodes.IADD && op != Opcodes.ISUB) || frames[at] == null) {
      return null;
    }
    Frame<SourceValue> f = frames[at];
    AbstractInsnNode left = onlySource(f.getStack(f.getStackSize() - 2));
    AbstractInsnNode right = onlySource(f.getStack(f.getStackSize() - 1));
    if (isLoadOf(left, v) && invariantInt(right, body, v)) {
      return new VarInsnNode[] {(VarInsnNode) left, (VarInsnNode) right};
    }
    if (op == Opcodes.IADD && isLoadOf(right, v) && invariantInt(left, body, v)) {
      return new VarInsnNode[] {(VarInsnNode) right, (VarInsnNode) left};
    }
    return null;
  }

  private boolean invariantInt(AbstractInsnNode insn, BitSet body, int v) {
    return insn instanceof VarInsnNode l && l.getOpcode() == Opcodes.ILOAD && l.var != v && invariant(l, body);
  }

  /**
   * The instruction that yields an access's array, when it yields the same array in every iteration unless another
   * thread changes what it reads (a race on that location, reported by its own hook; the rewritten loop then drops
   * the range checks, see {@link Access}): an {@code aaload} row ({@link #invariantRow}), or a read of an array-typed
   * field of an object held in a local the loop never stores ({@code this.data[j]}), or of a static of the method's own
   * class, when the loop stores into no field of that name.
   */
  private boolean invariantArraySource(AbstractInsnNode insn, BitSet body) {
    int op = insn.getOpcode();
    if (op == Opcodes.AALOAD) {
      return invariantRow(insn, body);
    }
    if (op != Opcodes.GETFIELD && op != Opcodes.GETSTATIC) {
      return false;
    }
    FieldInsnNode field = (FieldInsnNode) insn;
    int at = insns.indexOf(insn);
    if (!body.get(at) || frames[at] == null || !field.desc.startsWith("[")) {
      return false;
    }
    for (int j = body.nextSetBit(0); j >= 0; j = body.nextSetBit(j + 1)) {
      if (insns.get(j) instanceof FieldInsnNode put && (put.getOpcode() == Opcodes.PUTFIELD
          || put.getOpcode() == Opcodes.PUTSTATIC) && put.name.equals(field.name)) {
        return false;
      }
    }
    if (op == Opcodes.GETSTATIC) {
      return true; // quiet(): only the method's own class's statics, never volatile
    }
    Frame<SourceValue> f = frames[at];
    AbstractInsnNode receiver = onlySource(f.getStack(f.getStackSize() - 1));
    return receiver instanceof VarInsnNode r && r.getOpcode() == Opcodes.ALOAD && invariant(r, body);
  }

  /**
   * For an index computed as {@code v + c}, {@code c + v} or {@code v - c} (c a small constant, {@code iadd} or
   * {@code isub} of an {@code iload v} and an {@code iconst}/{@code bipush}/{@code sipush}): that {@code iload v}; else
   * null.
   */
  private VarInsnNode shiftedLoad(AbstractInsnNode arithmetic, int v) {
    int op = arithmetic.getOpcode();
    int at = insns.indexOf(arithmetic);
    if ((op != Opcodes.IADD && op != Opcodes.ISUB) || frames[at] == null) {
      return null;
    }
    Frame<SourceValue> f = frames[at];
    AbstractInsnNode left = onlySource(f.getStack(f.getStackSize() - 2));
    AbstractInsnNode right = onlySource(f.getStack(f.getStackSize() - 1));
    if (isLoadOf(left, v) && constant(right) != null) {
      return (VarInsnNode) left;
    }
    if (op == Opcodes.IADD && isLoadOf(right, v) && constant(left) != null) {
      return (VarInsnNode) right;
    }
    return null;
  }

  private static boolean isLoadOf(AbstractInsnNode insn, int v) {
    return insn instanceof VarInsnNode x && x.getOpcode() == Opcodes.ILOAD && x.var == v;
  }

  /** The value an {@code iconst}, {@code bipush} or {@code sipush} pushes, else null. */
  static Integer constant(AbstractInsnNode insn) {
    int op = insn == null ? -1 : insn.getOpcode();
    if (op >= Opcodes.ICONST_M1 && op <= Opcodes.ICONST_5) {
      return op - Opcodes.ICONST_0;
    }
    if (op == Opcodes.BIPUSH || op == Opcodes.SIPUSH) {
      return ((org.objectweb.asm.tree.IntInsnNode) insn).operand;
    }
    return null;
  }

  /** A load in the loop of a local the loop never stores. */
  private boolean invariant(VarInsnNode load, BitSet body) {
    if (!body.get(insns.indexOf(load))) {
      return false;
    }
    for (int j = body.nextSetBit(0); j >= 0; j = body.nextSetBit(j + 1)) {
      if (writesLocal(insns.get(j), load.var)) {
        return false;
      }
    }
    return true;
  }

  /** An {@code aaload} in the loop of an invariant local at an invariant local or constant index. */
  private boolean invariantRow(AbstractInsnNode aaload, BitSet body) {
    int r = insns.indexOf(aaload);
    Frame<SourceValue> f = frames[r];
    if (!body.get(r) || f == null) {
      return false;
    }
    AbstractInsnNode outer = onlySource(f.getStack(f.getStackSize() - 2));
    AbstractInsnNode index = onlySource(f.getStack(f.getStackSize() - 1));
    if (!(outer instanceof VarInsnNode o) || o.getOpcode() != Opcodes.ALOAD || !invariant(o, body)) {
      return false;
    }
    if (index instanceof VarInsnNode i) {
      return i.getOpcode() == Opcodes.ILOAD && invariant(i, body);
    }
    return constant(index) != null;
  }

  private static AbstractInsnNode onlySource(SourceValue value) {
    return value != null && value.insns.size() == 1 ? value.insns.iterator().next() : null;
  }

  /** Normal exits; null if the increment's place relative to one is not fixed. Drops accesses whose is not. */
  private List<Exit> exits(int h, BitSet body, int incIndex, List<Access> accesses) {
    List<int[]> edges = new ArrayList<>(); // {from, to or -1 for a return}
    for (int x = body.nextSetBit(0); x >= 0; x = body.nextSetBit(x + 1)) {
      int op = insns.get(x).getOpcode();
      if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) {
        edges.add(new int[] {x, -1});
      }
      for (int y = succ[x].nextSetBit(0); y >= 0; y = succ[x].nextSetBit(y + 1)) {
        if (!body.get(y)) {
          edges.add(new int[] {x, y});
        }
      }
    }
    BitSet incReach = reach(incIndex, h, body);
    for (int[] e : edges) {
      if (!dominates(incIndex, e[0]) && incReach.get(e[0])) {
        return null;
      }
    }
    // an access whose run in the leaving iteration is undecided keeps its own check
    for (int k = accesses.size() - 1; k >= 0; k--) { // no lambda: the transformer must not bootstrap one mid-load
      int ai = insns.indexOf(accesses.get(k).insn());
      BitSet r = reach(ai, h, body);
      for (int[] e : edges) {
        if (!dominates(ai, e[0]) && r.get(e[0])) {
          accesses.remove(k);
          break;
        }
      }
    }
    List<Exit> exits = new ArrayList<>();
    for (int[] e : edges) {
      int x = e[0];
      boolean afterInc = dominates(incIndex, x);
      boolean[] executed = new boolean[accesses.size()];
      for (int k = 0; k < executed.length; k++) {
        executed[k] = dominates(insns.indexOf(accesses.get(k).insn()), x);
      }
      AbstractInsnNode from = insns.get(x);
      if (e[1] < 0) {
        exits.add(new Exit(from, ExitKind.RETURN, null, afterInc, executed));
        continue;
      }
      AbstractInsnNode to = insns.get(e[1]);
      boolean jumped = to instanceof LabelNode label && targets(from, label);
      if (jumped) {
        exits.add(new Exit(from, ExitKind.JUMP, (LabelNode) to, afterInc, executed));
      }
      if (e[1] == x + 1 && fallsThrough(from)) {
        exits.add(new Exit(from, ExitKind.FALL_THROUGH, null, afterInc, executed));
      } else if (!jumped) {
        return null; // an edge of a kind not understood
      }
    }
    return exits;
  }

  /** Ways into the header from outside the loop; null if one is not a plain jump or fall-through. */
  private List<Entry> entries(int h, BitSet body) {
    List<Entry> entries = new ArrayList<>();
    if (h == 0) {
      return null; // the method starts with the loop: no place before it
    }
    for (int p = pred[h].nextSetBit(0); p >= 0; p = pred[h].nextSetBit(p + 1)) {
      if (body.get(p)) {
        continue;
      }
      AbstractInsnNode from = insns.get(p);
      boolean jumped = insns.get(h) instanceof LabelNode label && targets(from, label);
      if (jumped) {
        entries.add(new Entry(from, true));
      }
      if (p == h - 1 && fallsThrough(from)) {
        entries.add(new Entry(from, false));
      } else if (!jumped) {
        return null;
      }
    }
    if (!exceptionPred[h].isEmpty()) {
      return null; // the header is a handler
    }
    return entries;
  }

  private static boolean targets(AbstractInsnNode from, LabelNode label) {
    if (from instanceof JumpInsnNode j) {
      return j.label == label;
    }
    if (from instanceof TableSwitchInsnNode s) {
      return s.dflt == label || s.labels.contains(label);
    }
    if (from instanceof LookupSwitchInsnNode s) {
      return s.dflt == label || s.labels.contains(label);
    }
    return false;
  }

  private static boolean fallsThrough(AbstractInsnNode insn) {
    int op = insn.getOpcode();
    return op != Opcodes.GOTO && op != Opcodes.ATHROW && !(op >= Opcodes.IRETURN && op <= Opcodes.RETURN)
        && !(insn instanceof TableSwitchInsnNode) && !(insn instanceof LookupSwitchInsnNode);
  }

  private boolean notCoveredByHandlers(BitSet body) {
    for (TryCatchBlockNode tcb : method.tryCatchBlocks) {
      int start = insns.indexOf(tcb.start);
      int end = insns.indexOf(tcb.end);
      int first = body.nextSetBit(start);
      if (first >= 0 && first < end) {
        return false;
      }
    }
    return true;
  }

  /** The body as runs of consecutive instructions (first and last node of each). */
  private List<AbstractInsnNode[]> runs(BitSet body) {
    List<AbstractInsnNode[]> runs = new ArrayList<>();
    for (int i = body.nextSetBit(0); i >= 0; ) {
      int end = body.nextClearBit(i);
      runs.add(new AbstractInsnNode[] {insns.get(i), insns.get(end - 1)});
      i = body.nextSetBit(end);
    }
    return runs;
  }

  // ---- the loop's shape ----

  /** The natural loop of the back edges into h: h and every node that reaches a latch without passing h. */
  private BitSet body(int h, BitSet latches) {
    BitSet body = new BitSet();
    body.set(h);
    List<Integer> work = new ArrayList<>();
    for (int u = latches.nextSetBit(0); u >= 0; u = latches.nextSetBit(u + 1)) {
      if (!body.get(u)) {
        body.set(u);
        work.add(u);
      }
    }
    while (!work.isEmpty()) {
      int x = work.remove(work.size() - 1);
      for (int p = pred[x].nextSetBit(0); p >= 0; p = pred[x].nextSetBit(p + 1)) {
        if (!body.get(p) && frames[p] != null) {
          body.set(p);
          work.add(p);
        }
      }
      BitSet throwers = exceptionPred[x]; // a handler in the loop (rejected later) brings its range
      for (int p = throwers.nextSetBit(0); p >= 0; p = throwers.nextSetBit(p + 1)) {
        if (!body.get(p) && frames[p] != null && dominates(h, p)) {
          body.set(p);
          work.add(p);
        }
      }
    }
    return body;
  }

  /** True if the body without its header has no cycle (so no inner loop, no irreducible part). */
  private boolean innermost(int h, BitSet body) {
    int[] state = new int[n]; // 0 new, 1 on the path, 2 done
    for (int s = body.nextSetBit(0); s >= 0; s = body.nextSetBit(s + 1)) {
      if (s == h || state[s] != 0) {
        continue;
      }
      // iterative DFS
      List<int[]> stack = new ArrayList<>();
      stack.add(new int[] {s, 0});
      state[s] = 1;
      while (!stack.isEmpty()) {
        int[] top = stack.get(stack.size() - 1);
        int next = succ[top[0]].nextSetBit(top[1]);
        while (next >= 0 && (next == h || !body.get(next))) {
          next = succ[top[0]].nextSetBit(next + 1);
        }
        if (next < 0) {
          state[top[0]] = 2;
          stack.remove(stack.size() - 1);
          continue;
        }
        top[1] = next + 1;
        if (state[next] == 1) {
          return false;
        }
        if (state[next] == 0) {
          state[next] = 1;
          stack.add(new int[] {next, 0});
        }
      }
    }
    return true;
  }

  /** True if {@code n} lies on a cycle of the body without its header (in an inner loop): it may run repeatedly. */
  private boolean cyclic(int n, int h, BitSet body) {
    for (int y = succ[n].nextSetBit(0); y >= 0; y = succ[n].nextSetBit(y + 1)) {
      if (y != h && body.get(y) && reach(y, h, body).get(n)) {
        return true;
      }
    }
    return false;
  }

  /** Nodes reachable from {@code from} within the body without going back to the header (one iteration's rest). */
  private BitSet reach(int from, int h, BitSet body) {
    BitSet seen = new BitSet();
    List<Integer> work = new ArrayList<>();
    work.add(from);
    seen.set(from);
    while (!work.isEmpty()) {
      int x = work.remove(work.size() - 1);
      for (int y = succ[x].nextSetBit(0); y >= 0; y = succ[x].nextSetBit(y + 1)) {
        if (y != h && body.get(y) && !seen.get(y)) {
          seen.set(y);
          work.add(y);
        }
      }
    }
    return seen;
  }

  /**
   * Nothing in the body can synchronise, run code the agent does not see, or throw on purpose: see the class
   * comment for the instructions allowed.
   */
  private boolean quiet(BitSet body) {
    for (int i = body.nextSetBit(0); i >= 0; i = body.nextSetBit(i + 1)) {
      if (!quiet(insns.get(i))) {
        return false;
      }
    }
    return true;
  }

  private boolean quiet(AbstractInsnNode insn) {
    int op = insn.getOpcode();
    if (op < 0) {
      return true; // label, line number, frame
    }
    if (op <= Opcodes.SASTORE || (op >= Opcodes.POP && op <= Opcodes.LXOR) || (op >= Opcodes.IINC && op <= Opcodes.DCMPG)
        || (op >= Opcodes.IFEQ && op <= Opcodes.GOTO) || op == Opcodes.TABLESWITCH || op == Opcodes.LOOKUPSWITCH
        || (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) || op == Opcodes.ARRAYLENGTH || op == Opcodes.IFNULL
        || op == Opcodes.IFNONNULL || op == Opcodes.NEWARRAY) {
      if (op == Opcodes.LDC) {
        Object c = ((LdcInsnNode) insn).cst;
        return c instanceof Integer || c instanceof Float || c instanceof Long || c instanceof Double
            || c instanceof String;
      }
      return true;
    }
    if (insn instanceof MethodInsnNode m) {
      return pureMath(m) || QuietCallees.pureString(op, m.owner, m.name)
          || (m.owner.equals(owner) && !m.itf && op != Opcodes.INVOKEINTERFACE
              && ctx.quietCallees().contains(m.name + m.desc));
    }
    if (insn instanceof FieldInsnNode f) {
      ClassHierarchy.ResolvedField field = ctx.hierarchy().resolveField(ctx.loader(), f.owner, f.name);
      if (field == null || field.isVolatile()) {
        return false;
      }
      boolean isStatic = op == Opcodes.GETSTATIC || op == Opcodes.PUTSTATIC;
      // another class's static may run its <clinit> the first time: allowed when that cannot synchronise
      return !isStatic || field.declaringClass().equals(owner)
          || ctx.hierarchy().quietInitialisation(ctx.loader(), field.declaringClass());
    }
    return false;
  }

  /** A pure {@code Math}/{@code StrictMath} call, or a box's bit operation ({@link QuietCallees#pureMath}). */
  static boolean pureMath(MethodInsnNode m) {
    return QuietCallees.pureMath(m.getOpcode(), m.owner, m.name, m.desc);
  }

  private static boolean writesLocal(AbstractInsnNode insn, int local) {
    if (insn instanceof IincInsnNode i) {
      return i.var == local;
    }
    if (insn instanceof VarInsnNode s && s.getOpcode() >= Opcodes.ISTORE && s.getOpcode() <= Opcodes.ASTORE) {
      boolean wide = s.getOpcode() == Opcodes.LSTORE || s.getOpcode() == Opcodes.DSTORE;
      return s.var == local || (wide && s.var + 1 == local);
    }
    return false;
  }

  // ---- dominators (Cooper, Harvey, Kennedy), over normal and exception edges ----

  private int[] dominators() {
    int[] order = new int[n];
    int[] rpoIndex = new int[n];
    java.util.Arrays.fill(rpoIndex, -1);
    int count = postOrder(order);
    // order[0..count) is a post-order; reverse it
    int[] rpo = new int[count];
    for (int i = 0; i < count; i++) {
      rpo[i] = order[count - 1 - i];
      rpoIndex[rpo[i]] = i;
    }
    int[] dom = new int[n];
    java.util.Arrays.fill(dom, -1);
    dom[0] = 0;
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int k = 1; k < count; k++) {
        int b = rpo[k];
        int newIdom = -1;
        BitSet preds = (BitSet) pred[b].clone();
        preds.or(exceptionPred[b]);
        for (int p = preds.nextSetBit(0); p >= 0; p = preds.nextSetBit(p + 1)) {
          if (dom[p] < 0 || rpoIndex[p] < 0) {
            continue;
          }
          newIdom = newIdom < 0 ? p : intersect(dom, rpoIndex, p, newIdom);
        }
        if (newIdom >= 0 && dom[b] != newIdom) {
          dom[b] = newIdom;
          changed = true;
        }
      }
    }
    return dom;
  }

  private static int intersect(int[] dom, int[] rpoIndex, int a, int b) {
    while (a != b) {
      while (rpoIndex[a] > rpoIndex[b]) {
        a = dom[a];
      }
      while (rpoIndex[b] > rpoIndex[a]) {
        b = dom[b];
      }
    }
    return a;
  }

  private int postOrder(int[] out) {
    boolean[] seen = new boolean[n];
    int count = 0;
    List<int[]> stack = new ArrayList<>();
    stack.add(new int[] {0, 0});
    seen[0] = true;
    while (!stack.isEmpty()) {
      int[] top = stack.get(stack.size() - 1);
      int x = top[0];
      int next = -1;
      while (top[1] < 2 * n) {
        int k = top[1];
        int y = k < n ? succ[x].nextSetBit(k) : -1;
        if (y >= 0) {
          top[1] = y + 1;
        } else {
          int e = exceptionSucc[x].nextSetBit(Math.max(k, n) - n);
          if (e < 0) {
            top[1] = 2 * n;
            break;
          }
          y = e;
          top[1] = n + e + 1;
        }
        if (!seen[y]) {
          next = y;
          break;
        }
      }
      if (next < 0) {
        out[count++] = x;
        stack.remove(stack.size() - 1);
      } else {
        seen[next] = true;
        stack.add(new int[] {next, 0});
      }
    }
    return count;
  }

  /** a dominates b (reflexive); false for unreachable b. */
  private boolean dominates(int a, int b) {
    if (idom[b] < 0) {
      return false;
    }
    for (int x = b; ; x = idom[x]) {
      if (x == a) {
        return true;
      }
      if (x == 0) {
        return false;
      }
    }
  }

  private boolean dominatesAll(int a, BitSet nodes) {
    for (int b = nodes.nextSetBit(0); b >= 0; b = nodes.nextSetBit(b + 1)) {
      if (!dominates(a, b)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Where each stack value came from, seeing through the stack shuffles: a duplicated value keeps the load that
   * produced it (javac's {@code DUP2} of {@code a[i] op= e}), so an access's array and index name their loads.
   */
  private static final class ValueSources extends SourceInterpreter {
    ValueSources() {
      super(Opcodes.ASM9);
    }

    @Override
    public SourceValue copyOperation(AbstractInsnNode insn, SourceValue value) {
      int op = insn.getOpcode();
      if (op >= Opcodes.DUP && op <= Opcodes.SWAP) {
        return value;
      }
      return super.copyOperation(insn, value);
    }
  }
}
