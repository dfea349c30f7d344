package dev.racetriage.agent.instrument;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Detect mode: replaces the per-element checks of the counted loops {@link CountedLoops} finds by one range check per
 * array and access kind at each way out of the loop (BigFoot's check placement, Rhodes, Flanagan and Freund, PLDI
 * 2017, in its simplest form). The induction variable's value is saved in a fresh local on every way into the loop
 * header; at each exit {@code Hooks.writeRange/readRange(array, from, to, site)} checks exactly the elements the
 * loop touched — {@code [from, to)} computed from the saved and the current value — as the element hooks would
 * have, one after the other, with the thread's clock they would have had (the loop does not synchronise).
 *
 * <p>If no handler of the method covers the loop, a catch-all handler over the loop's instructions checks the
 * elements of the iterations completed before an exception (one fewer when the throw point's side of the increment
 * is not known) and rethrows; otherwise an exception that leaves the loop leaves that execution's elements unchecked
 * (a missed race, never a false one).
 *
 * <p>When a read and a write of the same array have the same range only the write is checked: on every element the
 * write check fails exactly when the read check would (same location, same clock), and reports the race as WW
 * ({@link CompoundUpdateMarker} makes the same trade per access). Writes are checked before reads, so a read of an
 * element the loop wrote first is not reported against an older write.
 */
final class LoopCheckHoister {
  private final MethodNode method;
  private final ClassContext ctx;
  /** Per jump instruction and target label: the code to run on that edge (exits first, then entries). */
  private final Map<AbstractInsnNode, Map<LabelNode, InsnList>> edges = new IdentityHashMap<>();
  private final List<AbstractInsnNode> edgeOrder = new ArrayList<>();
  /** Per guarded row load: its {first, same} locals (see {@link #rowGuard}). */
  private final Map<AbstractInsnNode, int[]> rows = new IdentityHashMap<>();

  private LoopCheckHoister(MethodNode method, ClassContext ctx) {
    this.method = method;
    this.ctx = ctx;
  }

  /**
   * Rewrites the method's hoistable loops in place.
   *
   * @return the ordinals (among the method's array loads and stores, in instruction order) of the accesses whose
   *     element hooks the {@link EventInstrumenter} must leave out; empty if nothing was hoisted
   */
  static Hoisted hoist(String owner, MethodNode method, ClassContext ctx) {
    return hoist(owner, method, ctx, java.util.Set.of());
  }

  /**
   * As {@link #hoist(String, MethodNode, ClassContext)}, leaving out the accesses in {@code unhooked} (array accesses
   * that need no check at all, {@link ConfinedArrays}): a loop left with none is not rewritten.
   */
  static Hoisted hoist(String owner, MethodNode method, ClassContext ctx, java.util.Set<AbstractInsnNode> unhooked) {
    List<CountedLoops.Loop> loops = CountedLoops.find(owner, method, ctx);
    if (!unhooked.isEmpty()) {
      List<CountedLoops.Loop> kept = new ArrayList<>();
      for (CountedLoops.Loop l : loops) {
        List<CountedLoops.Access> accesses = new ArrayList<>();
        for (CountedLoops.Access a : l.accesses()) {
          if (!unhooked.contains(a.insn())) {
            accesses.add(a);
          }
        }
        if (!accesses.isEmpty()) {
          kept.add(accesses.size() == l.accesses().size() ? l : new CountedLoops.Loop(l.induction(), l.stride(),
              l.header(), l.entries(), accesses, l.exits(), l.catchAll(), l.bodyRuns()));
        }
      }
      loops = kept;
    }
    if (loops.isEmpty()) {
      return Hoisted.NONE;
    }
    return new LoopCheckHoister(method, ctx).rewrite(loops);
  }

  /**
   * What the {@link EventInstrumenter} must leave unhooked: {@code elements}, ordinals among the method's array loads
   * and stores; {@code fieldReads}, ordinals among its {@code getfield}/{@code getstatic} instructions (a hoisted read,
   * or an exit's re-read of an array field to name the array).
   */
  record Hoisted(BitSet elements, BitSet fieldReads) {
    static final Hoisted NONE = new Hoisted(new BitSet(), new BitSet());
  }

  private Hoisted rewrite(List<CountedLoops.Loop> loops) {
    Map<AbstractInsnNode, Boolean> hoisted = new IdentityHashMap<>();
    List<CountedLoops.Loop> caught = new ArrayList<>();
    List<Integer> caughtSaved = new ArrayList<>();
    for (CountedLoops.Loop loop : loops) {
      int saved = method.maxLocals++;
      for (CountedLoops.Access a : loop.accesses()) {
        hoisted.put(a.insn(), Boolean.TRUE);
        if (a.row() != null && !rows.containsKey(a.row())) {
          int first = method.maxLocals++;
          int same = method.maxLocals++;
          rows.put(a.row(), new int[] {first, same});
          method.instructions.insert(a.row(), rowGuard(first, same));
        }
      }
      for (CountedLoops.Entry entry : loop.entries()) {
        InsnList save = new InsnList();
        save.add(new VarInsnNode(Opcodes.ILOAD, loop.induction()));
        save.add(new VarInsnNode(Opcodes.ISTORE, saved));
        for (CountedLoops.Access a : loop.accesses()) {
          int[] guard = a.row() != null ? rows.get(a.row()) : null;
          if (guard != null && !initialised(save, guard[0])) {
            save.add(new InsnNode(Opcodes.ACONST_NULL));
            save.add(new VarInsnNode(Opcodes.ASTORE, guard[0]));
            save.add(new InsnNode(Opcodes.ICONST_1));
            save.add(new VarInsnNode(Opcodes.ISTORE, guard[1]));
          }
        }
        if (entry.jump()) {
          onEdge(entry.from(), (LabelNode) loop.header()).add(save);
        } else {
          method.instructions.insertBefore(loop.header(), save);
        }
      }
      for (CountedLoops.Exit exit : loop.exits()) {
        InsnList checks = exitChecks(loop, exit, saved);
        if (exit.kind() == CountedLoops.ExitKind.JUMP) {
          onEdge(exit.from(), exit.target()).insert(checks);
        } else if (exit.kind() == CountedLoops.ExitKind.FALL_THROUGH) {
          method.instructions.insert(exit.from(), checks);
        } else {
          method.instructions.insertBefore(exit.from(), checks);
        }
      }
      if (loop.catchAll()) {
        caught.add(loop);
        caughtSaved.add(saved);
      }
    }
    for (AbstractInsnNode from : edgeOrder) {
      for (Map.Entry<LabelNode, InsnList> e : edges.get(from).entrySet()) {
        LabelNode trampoline = new LabelNode();
        InsnList code = new InsnList();
        code.add(trampoline);
        code.add(e.getValue());
        code.add(new JumpInsnNode(Opcodes.GOTO, e.getKey()));
        method.instructions.add(code);
        retarget(from, e.getKey(), trampoline);
      }
    }
    for (int k = 0; k < caught.size(); k++) { // last: their range labels go right around the loop's instructions
      addCatchAll(caught.get(k), caughtSaved.get(k));
    }
    hoisted.putAll(exitReads);
    BitSet ordinals = new BitSet();
    BitSet reads = new BitSet();
    int ordinal = 0;
    int read = 0;
    for (AbstractInsnNode insn : method.instructions) {
      if (CountedLoops.isArrayAccess(insn.getOpcode())) {
        if (hoisted.containsKey(insn)) {
          ordinals.set(ordinal);
        }
        ordinal++;
      } else if (insn.getOpcode() == Opcodes.GETFIELD || insn.getOpcode() == Opcodes.GETSTATIC) {
        if (hoisted.containsKey(insn)) {
          reads.set(read);
        }
        read++;
      }
    }
    return new Hoisted(ordinals, reads);
  }

  /** The exits' re-reads of hoisted array fields (to name the array): left unhooked like the reads they stand for. */
  private final Map<AbstractInsnNode, Boolean> exitReads = new IdentityHashMap<>();

  /**
   * After a row load {@code a[i]} (its value on the stack): the first iteration's value goes to {@code first}; a later
   * iteration that loads another array (another thread stored into {@code a[i]}: a race on it, reported by its own
   * element hook) clears {@code same}, and the loop's range checks of that row are dropped (missed, never wrong).
   */
  private static InsnList rowGuard(int first, int same) {
    LabelNode ok = new LabelNode();
    LabelNode differs = new LabelNode();
    InsnList code = new InsnList();
    code.add(new InsnNode(Opcodes.DUP));
    code.add(new VarInsnNode(Opcodes.ALOAD, first));
    code.add(new JumpInsnNode(Opcodes.IF_ACMPEQ, ok));
    code.add(new VarInsnNode(Opcodes.ALOAD, first));
    code.add(new JumpInsnNode(Opcodes.IFNONNULL, differs));
    code.add(new InsnNode(Opcodes.DUP));
    code.add(new VarInsnNode(Opcodes.ASTORE, first));
    code.add(new JumpInsnNode(Opcodes.GOTO, ok));
    code.add(differs);
    code.add(new InsnNode(Opcodes.ICONST_0));
    code.add(new VarInsnNode(Opcodes.ISTORE, same));
    code.add(ok);
    return code;
  }

  private static boolean initialised(InsnList code, int local) {
    for (AbstractInsnNode insn : code) {
      if (insn instanceof VarInsnNode v && v.getOpcode() == Opcodes.ASTORE && v.var == local) {
        return true;
      }
    }
    return false;
  }

  /** The code to run on the edge from a jump or switch to {@code target} (one trampoline per edge). */
  private InsnList onEdge(AbstractInsnNode from, LabelNode target) {
    Map<LabelNode, InsnList> byTarget = edges.get(from);
    if (byTarget == null) {
      byTarget = new LinkedHashMap<>();
      edges.put(from, byTarget);
      edgeOrder.add(from);
    }
    InsnList code = byTarget.get(target);
    if (code == null) {
      code = new InsnList();
      byTarget.put(target, code);
    }
    return code;
  }

  private static void retarget(AbstractInsnNode from, LabelNode old, LabelNode now) {
    if (from instanceof JumpInsnNode j) {
      j.label = now;
    } else if (from instanceof TableSwitchInsnNode s) {
      s.dflt = s.dflt == old ? now : s.dflt;
      replace(s.labels, old, now);
    } else if (from instanceof LookupSwitchInsnNode s) {
      s.dflt = s.dflt == old ? now : s.dflt;
      replace(s.labels, old, now);
    }
  }

  private static void replace(List<LabelNode> labels, LabelNode old, LabelNode now) {
    for (int i = 0; i < labels.size(); i++) {
      if (labels.get(i) == old) {
        labels.set(i, now);
      }
    }
  }

  /**
   * The elements {@code fromLocal + fromAdd + m * step} below {@code toLocal + toAdd} (m = 0, 1, …) of one array, checked
   * as reads or writes; or, with {@code point} non-null, the one element {@code point} if the access ran at least once:
   * if {@code toLocal - fromLocal + toAdd} is positive (the locals ordered by the stride).
   */
  private record Range(int array, int guard, boolean write, int fromLocal, int fromAdd, int toLocal, int toAdd,
                       CountedLoops.Index point, int step, int shiftLocal, int shiftSign) {
    static Range point(int array, int guard, boolean write, CountedLoops.Index index, int stride, int v, int saved,
                       int add) {
      return stride > 0 ? new Range(array, guard, write, saved, 0, v, add, index, 1, -1, 0)
          : new Range(array, guard, write, v, 0, saved, add, index, 1, -1, 0);
    }

    boolean sameElements(Range o) {
      return array == o.array && guard == o.guard && fromLocal == o.fromLocal && fromAdd == o.fromAdd
          && toLocal == o.toLocal && toAdd == o.toAdd && step == o.step && samePoint(o) && shiftLocal == o.shiftLocal
          && shiftSign == o.shiftSign;
    }

    private boolean samePoint(Range o) {
      return point == null ? o.point == null
          : o.point != null && point.local() == o.point.local() && point.constant() == o.point.constant();
    }

    // spelled out: a record's generated equals/hashCode bootstrap an invokedynamic on first use (mid-transform)
    @Override
    public boolean equals(Object o) {
      return o instanceof Range r && sameElements(r) && write == r.write;
    }

    @Override
    public int hashCode() {
      int h = ((((((((array * 31 + guard) * 31 + (write ? 1 : 0)) * 31 + fromLocal) * 31 + fromAdd) * 31 + toLocal)
          * 31 + toAdd) * 31 + step) * 31 + shiftLocal) * 31 + shiftSign;
      return point == null ? h : (h * 31 + point.local()) * 31 + point.constant();
    }
  }

  /**
   * The checks at one exit. With {@code o} = 1 for an access after the increment, {@code i} = 1 when the leaving
   * iteration ran the increment, {@code p} = 1 when it ran the access, {@code c} the access's index offset
   * ({@code a[v + c]}): stride k > 0 touched every k-th element of {@code [v0 + o*k + c, v + (o - i + p)*k + c)}, stride
   * -1 {@code [v + 1 - o + i - p + c, v0 + 1 - o + c)} (v0 the value saved at entry, v the current one).
   */
  private InsnList exitChecks(CountedLoops.Loop loop, CountedLoops.Exit exit, int saved) {
    Map<Range, Integer> ranges = new LinkedHashMap<>();
    List<CountedLoops.Access> accesses = loop.accesses();
    int v = loop.induction();
    int k = loop.stride();
    InsnList fieldChecks = new InsnList();
    for (int n = 0; n < accesses.size(); n++) {
      CountedLoops.Access a = accesses.get(n);
      int o = a.afterIncrement() ? 1 : 0;
      int i = exit.afterIncrement() ? 1 : 0;
      int p = exit.executed()[n] ? 1 : 0;
      if (a.field() != null) {
        emitFieldRead(fieldChecks, a, k, v, saved, (p - i) * Math.abs(k));
        continue;
      }
      if (a.fixed() != null) { // ran (v - v0) / k - i + p times: its one element if that is positive
        ranges.putIfAbsent(Range.point(array(a), guard(a), a.write(), a.fixed(), k, v, saved, (p - i) * Math.abs(k)),
            site(a.insn()));
        continue;
      }
      ranges.putIfAbsent(range(a, k, v, saved, o, o - i + p), site(a.insn()));
    }
    InsnList code = checks(ranges);
    code.add(fieldChecks);
    return code;
  }

  /**
   * A hoisted field read: if the loop ran it ({@code runs} = the point case's count, see {@link Range#point}), one
   * read check of the field with the read's site, and for an array-typed field the array named by re-reading it (the
   * re-read is left unhooked).
   */
  private void emitFieldRead(InsnList code, CountedLoops.Access a, int stride, int v, int saved, int add) {
    FieldInsnNode f = a.field();
    boolean isStatic = f.getOpcode() == Opcodes.GETSTATIC;
    int fieldId = ctx.ids().field(a.declaring(), f.name);
    LabelNode skip = new LabelNode();
    code.add(new VarInsnNode(Opcodes.ILOAD, stride > 0 ? v : saved));
    code.add(new VarInsnNode(Opcodes.ILOAD, stride > 0 ? saved : v));
    code.add(new InsnNode(Opcodes.ISUB));
    if (add != 0) {
      code.add(pushInt(add));
      code.add(new InsnNode(Opcodes.IADD));
    }
    code.add(new JumpInsnNode(Opcodes.IFLE, skip));
    if (!isStatic) {
      code.add(new VarInsnNode(Opcodes.ALOAD, a.arrayLocal()));
    }
    code.add(pushInt(fieldId));
    code.add(pushInt(site(f)));
    code.add(new InsnNode(Opcodes.ACONST_NULL)); // no thread slot here: the hook looks the thread up once
    code.add((isStatic ? HookMethod.READ_STATIC : HookMethod.READ_FIELD).insn());
    code.add(new InsnNode(Opcodes.POP));
    if (f.desc.startsWith("[")) {
      if (!isStatic) {
        code.add(new VarInsnNode(Opcodes.ALOAD, a.arrayLocal()));
      }
      FieldInsnNode again = new FieldInsnNode(f.getOpcode(), f.owner, f.name, f.desc);
      exitReads.put(again, Boolean.TRUE);
      code.add(again);
      code.add(pushInt(fieldId));
      code.add(new InsnNode(Opcodes.ACONST_NULL));
      code.add(HookMethod.ARRAY_IN_FIELD.insn());
      code.add(new InsnNode(Opcodes.POP));
    }
    code.add(skip);
  }

  /**
   * The elements of an access indexed by {@code v + c} over the iterations from v0 (local {@code saved}): for stride
   * k > 0, every k-th of {@code [v0 + o*k + c, v + end*k + c)}; for stride -1, {@code [v + 1 - end + c, v0 + 1 - o + c)}.
   */
  private Range range(CountedLoops.Access a, int k, int v, int saved, int o, int end) {
    int c = a.offset();
    return k > 0
        ? new Range(array(a), guard(a), a.write(), saved, o * k + c, v, end * k + c, null, k, a.offsetLocal(),
            a.offsetSign())
        : new Range(array(a), guard(a), a.write(), v, 1 - end + c, saved, 1 - o + c, null, 1, a.offsetLocal(),
            a.offsetSign());
  }

  /**
   * The catch-all handler: the iterations completed before the throw are at least {@code stride * (v - v0) - 1}, and
   * every hoisted access ran in each of them.
   */
  private void addCatchAll(CountedLoops.Loop loop, int saved) {
    Map<Range, Integer> ranges = new LinkedHashMap<>();
    int v = loop.induction();
    int k = loop.stride();
    InsnList fieldChecks = new InsnList();
    for (CountedLoops.Access a : loop.accesses()) {
      int o = a.afterIncrement() ? 1 : 0;
      if (a.field() != null) {
        emitFieldRead(fieldChecks, a, k, v, saved, -Math.abs(k));
        continue;
      }
      if (a.fixed() != null) {
        ranges.putIfAbsent(Range.point(array(a), guard(a), a.write(), a.fixed(), k, v, saved, -Math.abs(k)),
            site(a.insn()));
        continue;
      }
      ranges.putIfAbsent(range(a, k, v, saved, o, o - 1), site(a.insn()));
    }
    LabelNode handler = new LabelNode();
    InsnList code = new InsnList();
    code.add(handler);
    code.add(checks(ranges));
    code.add(fieldChecks);
    code.add(new InsnNode(Opcodes.ATHROW));
    for (AbstractInsnNode[] run : loop.bodyRuns()) {
      LabelNode start = new LabelNode();
      LabelNode end = new LabelNode();
      method.instructions.insertBefore(run[0], start);
      method.instructions.insert(run[1], end);
      method.tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, null));
    }
    method.instructions.add(code);
  }

  /** Writes first, then the reads not covered by a write of the same elements. */
  private InsnList checks(Map<Range, Integer> ranges) {
    InsnList code = new InsnList();
    for (Map.Entry<Range, Integer> e : ranges.entrySet()) {
      if (e.getKey().write()) {
        emit(code, e.getKey(), e.getValue());
      }
    }
    outer:
    for (Map.Entry<Range, Integer> e : ranges.entrySet()) {
      Range r = e.getKey();
      if (r.write()) {
        continue;
      }
      for (Range w : ranges.keySet()) {
        if (w.write() && w.sameElements(r)) {
          continue outer;
        }
      }
      emit(code, r, e.getValue());
    }
    return code;
  }

  /** The local holding the access's array: its own, or the first iteration's row. */
  private int array(CountedLoops.Access a) {
    return a.row() == null ? a.arrayLocal() : rows.get(a.row())[0];
  }

  /** The row guard's {@code same} local, or -1. */
  private int guard(CountedLoops.Access a) {
    return a.row() == null ? -1 : rows.get(a.row())[1];
  }

  private static void emit(InsnList code, Range r, int site) {
    LabelNode skip = null;
    if (r.guard() >= 0) {
      skip = new LabelNode();
      code.add(new VarInsnNode(Opcodes.ILOAD, r.guard()));
      code.add(new JumpInsnNode(Opcodes.IFEQ, skip));
    }
    code.add(new VarInsnNode(Opcodes.ALOAD, r.array()));
    if (r.point() != null) { // [index, index + (runs > 0 ? 1 : 0)): (-runs) >>> 31 is 1 for 0 < runs, else 0
      code.add(r.point().local() >= 0 ? new VarInsnNode(Opcodes.ILOAD, r.point().local())
          : pushInt(r.point().constant()));
      code.add(new InsnNode(Opcodes.DUP));
      code.add(new VarInsnNode(Opcodes.ILOAD, r.toLocal()));
      code.add(new VarInsnNode(Opcodes.ILOAD, r.fromLocal()));
      code.add(new InsnNode(Opcodes.ISUB));
      if (r.toAdd() != 0) {
        code.add(pushInt(r.toAdd()));
        code.add(new InsnNode(Opcodes.IADD));
      }
      code.add(new InsnNode(Opcodes.INEG));
      code.add(new IntInsnNode(Opcodes.BIPUSH, 31));
      code.add(new InsnNode(Opcodes.IUSHR));
      code.add(new InsnNode(Opcodes.IADD));
    } else {
      addLocalPlus(code, r.fromLocal(), r.fromAdd(), r.shiftLocal(), r.shiftSign());
      addLocalPlus(code, r.toLocal(), r.toAdd(), r.shiftLocal(), r.shiftSign());
    }
    HookMethod hook;
    if (r.step() != 1) {
      code.add(pushInt(r.step()));
      hook = r.write() ? HookMethod.WRITE_RANGE_STRIDED : HookMethod.READ_RANGE_STRIDED;
    } else {
      hook = r.write() ? HookMethod.WRITE_RANGE : HookMethod.READ_RANGE;
    }
    code.add(pushInt(site));
    code.add(hook.insn());
    if (skip != null) {
      code.add(skip);
    }
  }

  /** {@code local + add}, plus or minus {@code shiftLocal} (an invariant offset of the index, {@code a[v + l]}). */
  private static void addLocalPlus(InsnList code, int local, int add, int shiftLocal, int shiftSign) {
    code.add(new VarInsnNode(Opcodes.ILOAD, local));
    if (add != 0) {
      code.add(pushInt(add));
      code.add(new InsnNode(Opcodes.IADD));
    }
    if (shiftLocal >= 0) {
      code.add(new VarInsnNode(Opcodes.ILOAD, shiftLocal));
      code.add(new InsnNode(shiftSign < 0 ? Opcodes.ISUB : Opcodes.IADD));
    }
  }

  /** The site of an access: its class, method, file and the line the instrumenter would give it. */
  private int site(AbstractInsnNode insn) {
    int line = -1;
    for (AbstractInsnNode x = insn; x != null; x = x.getPrevious()) {
      if (x instanceof LineNumberNode l) {
        line = l.line;
        break;
      }
    }
    return ctx.ids().site(ctx.binaryName(), method.name, ctx.sourceFile(), line);
  }

  private static AbstractInsnNode pushInt(int value) {
    if (value >= -1 && value <= 5) {
      return new InsnNode(Opcodes.ICONST_0 + value);
    }
    if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
      return new IntInsnNode(Opcodes.BIPUSH, value);
    }
    if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
      return new IntInsnNode(Opcodes.SIPUSH, value);
    }
    return new LdcInsnNode(value);
  }
}
