package dev.racetriage.agent.instrument;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicInterpreter;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.Interpreter;

/**
 * Detect mode: the accesses whose check a check made earlier in the same method already stands for (RedCard's
 * redundant check elimination, Flanagan and Freund, ECOOP 2013, intraprocedural). An access needs no check when, on
 * every path to it, the same thread has checked a <em>write</em> of the same location since its last synchronisation:
 * the thread's clock is the same at both, so a write of another thread that races with the later access races with
 * that write too, and one of the two checks (the write's own, or the other write's against the write's record)
 * reports the location; only the site a report names changes.
 *
 * <p>Only a write covers (later reads and writes). A read does not cover a later read here, although it does in
 * RedCard: the h-summary reports WR and WW, never RW (JRF Theorem 2), so in "t reads x, u writes x unordered, t reads x
 * again" only the second read reports, and the first cannot stand for it ({@code RedundantChecksPropertyTest} has that
 * mutant).
 *
 * <p>A location is the field of the object in a local that has not been stored since ({@code this.count}, {@code
 * node.next}), a static field, or the element of an array in such a local at an index in such a local or a constant
 * ({@code a[i]}, {@code buf[0]}). A forward must-analysis over the method's normal control flow: the facts (locations
 * written and checked) are intersected where paths meet, every handler starts with none, and every instruction that
 * may synchronise or run code the agent does not see kills them all — a call (but to {@code Math}/{@code StrictMath}
 * other than {@code random}), an invokedynamic or dynamic constant, a monitor, a volatile access (acquires as well as
 * releases: the predictive analysis orders on both), {@code new} and the first access to another class's static whose
 * initialisation may synchronise (a {@code <clinit>} runs there); storing a local kills the locations named by it.
 * Accesses the loop hoister checks at a loop's exits ({@link LoopCheckHoister}) neither cover nor are covered here.
 * An access that loses its check keeps everything else (an array-typed field's value is still named after it).
 *
 * <p>Second, reads of two or three fields of one object on one line, in a straight-line stretch, share one hook after
 * the last of them ({@link #groupReads}).
 */
final class RedundantChecks {
  /** Nothing covered. */
  static final Covered NONE = new Covered(new BitSet(), new BitSet(), Map.of(), Map.of(), new BitSet());

  /**
   * What the {@link EventInstrumenter} leaves unchecked: {@code fields}, ordinals among the method's field instructions
   * (all four opcodes, in instruction order); {@code elements}, ordinals among its array loads and stores; and
   * {@code combined}: per field-read ordinal, the fields (ids, two or three) one hook after that read checks
   * ({@link #groupReads}); and {@code ranges}: per element-access ordinal, the range one hook after that access checks,
   * {@code {from, to, line}} — {@code from} and {@code to} relative to that read's index, {@code line} the first
   * access's ({@link #groupElementAccesses}); and {@code named}: field-instruction ordinals of final-field reads whose
   * value an earlier read in the same stretch already named ({@link #namedAgain}).
   */
  record Covered(BitSet fields, BitSet elements, Map<Integer, int[]> combined, Map<Integer, int[]> ranges,
                 BitSet named) {
  }

  private final String owner;
  private final MethodNode method;
  private final ClassContext ctx;
  private final boolean readsCover;
  private final Map<String, Integer> keys = new HashMap<>();
  /** Per local, the locations it names (killed when it is stored). */
  private final Map<Integer, BitSet> byLocal = new HashMap<>();

  private RedundantChecks(String owner, MethodNode method, ClassContext ctx, boolean readsCover) {
    this.owner = owner;
    this.method = method;
    this.ctx = ctx;
    this.readsCover = readsCover;
  }

  /**
   * Which rule runs: {@code WRITES} (the agent's), {@code OFF}, or {@code READS_TOO} — RedCard's, reads covering later
   * reads, unsound for the h-summary (see above) and set only to count what it would remove ({@code
   * RedundantChecksCount}, a test-scope tool).
   */
  enum Rule { OFF, WRITES, READS_TOO }

  static volatile Rule rule = Rule.WRITES;

  /**
   * The accesses of {@code method} (already rewritten by the hoister, which left {@code hoisted} unhooked).
   *
   * @param transparentSections whether the method has a transparent {@code synchronized} block (predict=true;
   *     {@link TransparentSections}): then no reads are grouped, since moving a read's check later inside such a
   *     section could move it past an access whose conflict orders the section for the predictive analysis
   */
  static Covered find(String owner, MethodNode method, ClassContext ctx, LoopCheckHoister.Hoisted hoisted,
                      boolean transparentSections) {
    Rule r = rule;
    return r == Rule.OFF ? NONE
        : find(owner, method, ctx, hoisted, r == Rule.READS_TOO, !transparentSections);
  }

  private static Covered find(String owner, MethodNode method, ClassContext ctx, LoopCheckHoister.Hoisted hoisted,
                              boolean readsCover, boolean groups) {
    if (!hasCandidates(method)) {
      return NONE;
    }
    int maxStack = method.maxStack;
    method.maxStack += 16; // the hoister's exit checks pushed more than the original code's maximum
    try {
      return new RedundantChecks(owner, method, ctx, readsCover).analyse(hoisted, groups);
    } catch (AnalyzerException | RuntimeException e) {
      return NONE; // not analysable here (e.g. a subroutine): every access keeps its check
    } finally {
      method.maxStack = maxStack;
    }
  }

  /** A method with fewer than two accesses has nothing to remove. */
  private static boolean hasCandidates(MethodNode method) {
    int accesses = 0;
    for (AbstractInsnNode insn = method.instructions.getFirst(); insn != null; insn = insn.getNext()) {
      int op = insn.getOpcode();
      if (isFieldAccess(op) || CountedLoops.isArrayAccess(op)) {
        accesses++;
      }
    }
    return accesses >= 2;
  }

  private static boolean isFieldAccess(int op) {
    return op == Opcodes.GETFIELD || op == Opcodes.PUTFIELD || op == Opcodes.GETSTATIC || op == Opcodes.PUTSTATIC;
  }

  /** One access: its location (-1: none we can name), whether it writes, whether it is checked where it stands. */
  private record Access(int key, boolean write, boolean checked, boolean otherClassStatic, int receiver, int fieldId) {
  }

  private Covered analyse(LoopCheckHoister.Hoisted hoisted, boolean groups) throws AnalyzerException {
    InsnList insns = method.instructions;
    int n = insns.size();
    List<List<Integer>> successors = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      successors.add(new ArrayList<>(2));
    }
    Analyzer<Val> analyzer = new Analyzer<>(new Locals()) {
      @Override
      protected Frame<Val> newFrame(int numLocals, int numStack) {
        return new LocalsFrame(numLocals, numStack);
      }

      @Override
      protected Frame<Val> newFrame(Frame<? extends Val> frame) {
        return new LocalsFrame(frame);
      }

      @Override
      protected void newControlFlowEdge(int insn, int successor) {
        successors.get(insn).add(successor);
      }
    };
    Frame<Val>[] frames = analyzer.analyze(owner, method);

    AbstractInsnNode[] code = insns.toArray();
    Access[] accesses = new Access[n];
    int[] fieldOrdinal = new int[n];
    int[] elementOrdinal = new int[n];
    int fields = 0;
    int reads = 0;
    int elements = 0;
    for (int i = 0; i < n; i++) {
      int op = code[i].getOpcode();
      if (isFieldAccess(op)) {
        boolean read = op == Opcodes.GETFIELD || op == Opcodes.GETSTATIC;
        boolean isHoisted = read && hoisted.fieldReads().get(reads);
        fieldOrdinal[i] = fields++;
        reads += read ? 1 : 0;
        if (frames[i] != null) {
          accesses[i] = fieldAccess((FieldInsnNode) code[i], frames[i], isHoisted);
        }
      } else if (CountedLoops.isArrayAccess(op)) {
        boolean isHoisted = hoisted.elements().get(elements);
        elementOrdinal[i] = elements++;
        if (frames[i] != null) {
          accesses[i] = elementAccess(op, frames[i], isHoisted);
        }
      }
    }
    if (keys.isEmpty()) {
      return NONE;
    }

    BitSet handlers = new BitSet(n);
    for (TryCatchBlockNode block : method.tryCatchBlocks) {
      handlers.set(insns.indexOf(block.handler));
    }
    // must-analysis: every fact set starts full (TOP) and only shrinks; entry and handlers start empty
    int width = keys.size();
    BitSet[] in = new BitSet[n];
    BitSet[] out = new BitSet[n];
    for (int i = 0; i < n; i++) {
      if (frames[i] != null) {
        in[i] = full(width);
        out[i] = full(width);
      }
    }
    List<List<Integer>> predecessors = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      predecessors.add(new ArrayList<>(2));
    }
    for (int i = 0; i < n; i++) {
      for (int s : successors.get(i)) {
        predecessors.get(s).add(i);
      }
    }
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int i = 0; i < n; i++) {
        if (frames[i] == null) {
          continue;
        }
        BitSet before = new BitSet(width);
        if (i != 0 && !handlers.get(i)) {
          before.set(0, width);
          for (int p : predecessors.get(i)) {
            before.and(out[p]);
          }
        }
        in[i] = before;
        BitSet after = (BitSet) before.clone();
        transfer(code[i], accesses[i], after);
        if (!after.equals(out[i])) {
          out[i] = after;
          changed = true;
        }
      }
    }

    BitSet coveredFields = new BitSet();
    BitSet coveredElements = new BitSet();
    for (int i = 0; i < n; i++) {
      Access a = accesses[i];
      if (a != null && a.checked() && a.key() >= 0 && in[i].get(a.key())) {
        if (isFieldAccess(code[i].getOpcode())) {
          coveredFields.set(fieldOrdinal[i]);
        } else {
          coveredElements.set(elementOrdinal[i]);
        }
      }
    }
    Map<Integer, int[]> combined = new HashMap<>();
    Map<Integer, int[]> ranges = new HashMap<>();
    if (groups) {
      groupReads(code, frames, accesses, fieldOrdinal, coveredFields, combined);
    }
    java.util.Set<LabelNode> targets = jumpTargets(code);
    if (groups) {
      groupElementAccesses(code, frames, accesses, elementOrdinal, coveredElements, ranges, targets);
    }
    return new Covered(coveredFields, coveredElements, combined, ranges,
        namedAgain(code, frames, fieldOrdinal, targets));
  }

  /**
   * Reads of up to three fields of the object in one local, on one line, in one straight-line stretch with no
   * synchronisation, no jump target and no store of that local or of a field of that object: all checked by one hook
   * after the last of them ({@code Hooks.readFields}), the earlier ones losing theirs. The check of an earlier read moves
   * later, past no synchronisation (as the loop hoister's do: a write of another thread in between is still reported,
   * as a race with that read); one line, so the site is the same. Adds the earlier reads to {@code unchecked} and maps
   * the last read's ordinal to the field ids in {@code combined}.
   */
  private static void groupReads(AbstractInsnNode[] code, Frame<Val>[] frames, Access[] accesses, int[] fieldOrdinal,
                                 BitSet unchecked, Map<Integer, int[]> combined) {
    Map<Integer, List<Integer>> open = new HashMap<>(); // per receiver local: the group's instructions
    for (int i = 0; i < code.length; i++) {
      AbstractInsnNode insn = code[i];
      int op = insn.getOpcode();
      Access a = accesses[i];
      if (op < 0) {
        if (!(insn instanceof org.objectweb.asm.tree.FrameNode)) {
          close(open, null, accesses, fieldOrdinal, unchecked, combined); // a label or a new line
        }
        continue;
      }
      if (frames[i] == null) {
        close(open, null, accesses, fieldOrdinal, unchecked, combined);
      } else if (a != null && op == Opcodes.GETFIELD && a.fieldId() >= 0 && !unchecked.get(fieldOrdinal[i])
          && !afterDup(code, i)) {
        List<Integer> group = open.computeIfAbsent(a.receiver(), k -> new ArrayList<>());
        group.add(i);
        if (distinctFields(group, accesses).length == 3) {
          close(open, a.receiver(), accesses, fieldOrdinal, unchecked, combined);
        }
      } else if (a != null) {
        if (a.otherClassStatic()) {
          close(open, null, accesses, fieldOrdinal, unchecked, combined);
        } else if (a.write() && a.receiver() >= 0) {
          close(open, a.receiver(), accesses, fieldOrdinal, unchecked, combined);
        }
      } else if (synchronises(insn) || insn instanceof org.objectweb.asm.tree.JumpInsnNode
          || op == Opcodes.TABLESWITCH || op == Opcodes.LOOKUPSWITCH || op == Opcodes.ATHROW
          || (op >= Opcodes.IRETURN && op <= Opcodes.RETURN)) {
        close(open, null, accesses, fieldOrdinal, unchecked, combined);
      } else if (insn instanceof VarInsnNode v && v.getOpcode() >= Opcodes.ISTORE) {
        close(open, v.var, accesses, fieldOrdinal, unchecked, combined);
        close(open, v.var + 1, accesses, fieldOrdinal, unchecked, combined);
      }
    }
    close(open, null, accesses, fieldOrdinal, unchecked, combined);
  }

  /**
   * Element reads of one array at indices {@code i + c} (one int local {@code i}, constants {@code c}) or at constant
   * indices, in one straight-line stretch with no synchronisation, no jump target, no array store and no store of a
   * local they depend on, whose indices fill a range ({@code b[i], b[i + 1], b[i + 2], b[i + 3]}: a decoder's
   * little-endian int, a hash's block): all checked by one range check after the last of them ({@code
   * Hooks.readElements}), the earlier ones losing theirs. An increment of the index ({@code b[p++]}) moves the later
   * offsets instead of ending the stretch, and so does a call of a quiet method of the class ({@link #quietCall}).
   * Likewise element writes with no array load and no call between them ({@code state[0] = s0; … state[3] = s3},
   * {@code Hooks.writeElements}). The array is one local, or a final field
   * of the object in one local, or a final static (the same array at every read outside constructors and class
   * initialisers, which are not analysed here). As for {@link #groupReads}, each earlier check moves later, past no
   * synchronisation of the thread, so a write of another thread in between is still reported, as a race with that
   * read ({@code DeferredChecksPropertyTest}); unlike there, the stretch may span lines, and the report names the
   * first access's line. An access that throws ends the stretch with the earlier ones unchecked — an index out of
   * bounds, which a program does not survive in the common case. Adds the earlier accesses to {@code unchecked}; maps
   * the last one's ordinal to {@code {from, to, line}}, from and to relative to its index.
   */
  private void groupElementAccesses(AbstractInsnNode[] code, Frame<Val>[] frames, Access[] accesses,
                                    int[] elementOrdinal, BitSet unchecked, Map<Integer, int[]> ranges,
                                    java.util.Set<LabelNode> targets) {
    Map<GroupKey, List<int[]>> reads = new HashMap<>(); // per array and index: {instruction, offset, line}
    Map<GroupKey, List<int[]>> writes = new HashMap<>();
    // per int local, what iinc added to it since the scan began: an offset after `i++` counts from i's value before
    Map<Integer, Integer> added = new HashMap<>();
    int line = -1;
    for (int i = 0; i < code.length; i++) {
      AbstractInsnNode insn = code[i];
      int op = insn.getOpcode();
      if (insn instanceof LineNumberNode l) {
        line = l.line;
        continue;
      }
      if (op < 0) {
        if (insn instanceof LabelNode label && targets.contains(label)) {
          closeElements(reads, null, elementOrdinal, unchecked, ranges);
          closeElements(writes, null, elementOrdinal, unchecked, ranges);
        }
        continue;
      }
      Access a = accesses[i];
      boolean element = CountedLoops.isArrayAccess(op);
      if (frames[i] != null && quietCall(insn)) {
        closeElements(writes, null, elementOrdinal, unchecked, ranges); // it may load what the writes stored
      } else if (frames[i] == null || (a != null && a.otherClassStatic())
          || (a == null && (element || synchronises(insn) || insn instanceof JumpInsnNode
              || op == Opcodes.TABLESWITCH || op == Opcodes.LOOKUPSWITCH || op == Opcodes.ATHROW
              || (op >= Opcodes.IRETURN && op <= Opcodes.RETURN)))) {
        closeElements(reads, null, elementOrdinal, unchecked, ranges);
        closeElements(writes, null, elementOrdinal, unchecked, ranges);
      } else if (element) {
        boolean store = op >= Opcodes.IASTORE;
        // a store ends the reads' stretch (the thread's own write), a load the writes'
        closeElements(store ? reads : writes, null, elementOrdinal, unchecked, ranges);
        Frame<Val> f = frames[i];
        int top = f.getStackSize() - (store ? 3 : 2);
        GroupKey key = a.checked() && !unchecked.get(elementOrdinal[i]) && (store || previousOpcode(code, i)
            != Opcodes.DUP2) ? groupKey(f.getStack(top), f.getStack(top + 1)) : null;
        Map<GroupKey, List<int[]>> open = store ? writes : reads;
        Val index = f.getStack(top + 1);
        long offset = key == null ? 0
            : index.local >= 0 ? (long) index.offset + added.getOrDefault(index.local, 0) : index.constant;
        if (key != null && Math.abs(offset) <= Val.MAX_OFFSET) { // else far from the stretch's start: not grouped
          open.computeIfAbsent(key, k -> new ArrayList<>()).add(new int[] {i, (int) offset, line});
        } else if (store) {
          closeElements(writes, null, elementOrdinal, unchecked, ranges);
        }
      } else if (insn instanceof VarInsnNode v && v.getOpcode() >= Opcodes.ISTORE) {
        for (int local = v.var; local <= v.var + 1; local++) {
          closeElements(reads, local, elementOrdinal, unchecked, ranges);
          closeElements(writes, local, elementOrdinal, unchecked, ranges);
        }
      } else if (insn instanceof IincInsnNode inc) {
        // a group indexed by the local goes on (`b[p++]`): later offsets count from the value before the increment;
        // one whose array is the local cannot be (an int local is no array)
        added.merge(inc.var, inc.incr, Integer::sum);
      }
    }
    closeElements(reads, null, elementOrdinal, unchecked, ranges);
    closeElements(writes, null, elementOrdinal, unchecked, ranges);
  }

  /**
   * Reads of a final reference field ({@code this.state}, a final static table) whose value an earlier read of the same
   * field of the object in the same unmodified local already named, in one straight-line stretch with no jump target:
   * the field holds the same array or container at both (outside constructors and class initialisers, which this pass
   * does not analyse), and a name, once given, stays — so the later read's naming hook ({@code Hooks.arrayInField},
   * {@code ContainerHooks.inField}) would find it named. {@code XXHash32.process} reads {@code state} eight times.
   */
  private BitSet namedAgain(AbstractInsnNode[] code, Frame<Val>[] frames, int[] fieldOrdinal,
                            java.util.Set<LabelNode> targets) {
    BitSet again = new BitSet();
    java.util.Set<String> named = new java.util.HashSet<>(); // "receiver local owner.name", receiver -1 for statics
    for (int i = 0; i < code.length; i++) {
      AbstractInsnNode insn = code[i];
      int op = insn.getOpcode();
      if (frames[i] == null || (insn instanceof LabelNode l && targets.contains(l))) {
        named.clear();
      } else if ((op == Opcodes.GETFIELD || op == Opcodes.GETSTATIC) && insn instanceof FieldInsnNode f
          && (f.desc.startsWith("[") || f.desc.startsWith("L"))) {
        int receiver = -1;
        if (op == Opcodes.GETFIELD) {
          Val r = frames[i].getStack(frames[i].getStackSize() - 1);
          if (r.local < 0) {
            continue;
          }
          receiver = r.local;
        }
        String path = f.owner + "." + f.name;
        if (!finalFields.computeIfAbsent(path, this::isFinalField)) {
          continue;
        }
        if (!named.add(receiver + " " + path)) {
          again.set(fieldOrdinal[i]);
        }
      } else if (insn instanceof VarInsnNode v && v.getOpcode() >= Opcodes.ISTORE) {
        // an lstore or dstore writes the next local too
        named.removeIf(k -> k.startsWith(v.var + " ") || k.startsWith((v.var + 1) + " "));
      }
    }
    return again;
  }

  private java.util.Set<LabelNode> jumpTargets(AbstractInsnNode[] code) {
    java.util.Set<LabelNode> targets = new java.util.HashSet<>();
    for (AbstractInsnNode insn : code) {
      if (insn instanceof JumpInsnNode j) {
        targets.add(j.label);
      } else if (insn instanceof TableSwitchInsnNode t) {
        targets.add(t.dflt);
        targets.addAll(t.labels);
      } else if (insn instanceof LookupSwitchInsnNode l) {
        targets.add(l.dflt);
        targets.addAll(l.labels);
      }
    }
    for (TryCatchBlockNode block : method.tryCatchBlocks) {
      targets.add(block.start);
      targets.add(block.end);
      targets.add(block.handler);
    }
    return targets;
  }

  /**
   * A call of a static or private method of the class that cannot synchronise, run code the agent does not see or
   * store anything ({@link QuietCallees}, as for the loop hoister), or a {@code String} query: the reads' stretch goes
   * on past it (its own accesses keep their hooks, which change no clock).
   */
  private boolean quietCall(AbstractInsnNode insn) {
    return insn instanceof MethodInsnNode m && (QuietCallees.pureString(m.getOpcode(), m.owner, m.name)
        || (m.owner.equals(owner) && !m.itf && m.getOpcode() != Opcodes.INVOKEINTERFACE
            && ctx.quietCallees().contains(m.name + m.desc)));
  }

  /**
   * A group's array and index: the array in local {@code array}, or read from final field {@code path} of the object
   * in local {@code receiver} (-1: a static); the index {@code index + offset} (an int local) or a constant ({@code
   * index} -1).
   */
  private record GroupKey(int array, String path, int receiver, int index) {
    boolean names(int local) {
      return array == local || receiver == local || index == local;
    }
  }

  private final Map<String, Boolean> finalFields = new HashMap<>();

  /** The group of an element access of {@code array} at {@code index}, or null if it cannot be grouped. */
  private GroupKey groupKey(Val array, Val index) {
    if (index.local < 0 && index.constant == null) {
      return null;
    }
    int at = index.local >= 0 ? index.local : -1;
    if (array.local >= 0) {
      return new GroupKey(array.local, null, -1, at);
    }
    if (array.path == null || !finalFields.computeIfAbsent(array.path, this::isFinalField)) {
      return null;
    }
    return new GroupKey(-1, array.path, array.pathLocal, at);
  }

  private boolean isFinalField(String path) {
    int dot = path.lastIndexOf('.');
    ClassHierarchy.ResolvedField field = ctx.hierarchy().resolveField(ctx.loader(), path.substring(0, dot),
        path.substring(dot + 1));
    return field != null && field.isFinal() && !field.isVolatile();
  }

  private static int previousOpcode(AbstractInsnNode[] code, int i) {
    for (int k = i - 1; k >= 0; k--) {
      if (code[k].getOpcode() >= 0) {
        return code[k].getOpcode();
      }
    }
    return -1;
  }

  /** The widest range one check stands for (a longer run of constant indices is split). */
  private static final int MAX_RANGE = 64;

  /**
   * Closes the groups that name {@code local} (every group when null): each run of accesses whose distinct offsets
   * are consecutive, two accesses or more, gets one range check at its last access.
   */
  private static void closeElements(Map<GroupKey, List<int[]>> open, Integer local, int[] elementOrdinal,
                                    BitSet unchecked, Map<Integer, int[]> ranges) {
    if (open.isEmpty()) {
      return;
    }
    List<List<int[]>> closing = new ArrayList<>();
    for (var it = open.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      if (local == null || e.getKey().names(local)) {
        closing.add(e.getValue());
        it.remove();
      }
    }
    for (List<int[]> group : closing) {
      java.util.TreeSet<Integer> offsets = new java.util.TreeSet<>();
      group.forEach(r -> offsets.add(r[1]));
      List<int[]> runs = new ArrayList<>(); // {first offset, last offset}: consecutive, at most MAX_RANGE wide
      for (int o : offsets) {
        int[] run = runs.isEmpty() ? null : runs.get(runs.size() - 1);
        if (run != null && o == run[1] + 1 && o - run[0] < MAX_RANGE) {
          run[1] = o;
        } else {
          runs.add(new int[] {o, o});
        }
      }
      for (int[] run : runs) {
        List<int[]> members = new ArrayList<>();
        for (int[] r : group) {
          if (r[1] >= run[0] && r[1] <= run[1]) {
            members.add(r);
          }
        }
        if (members.size() < 2) {
          continue;
        }
        int[] last = members.get(members.size() - 1);
        for (int[] r : members) {
          if (r != last) {
            unchecked.set(elementOrdinal[r[0]]);
          }
        }
        ranges.put(elementOrdinal[last[0]], new int[] {run[0] - last[1], run[1] + 1 - last[1], members.get(0)[2]});
      }
    }
  }

  /** javac's compound update ({@code o.f += e}: {@code dup; getfield}): left to {@link CompoundUpdateMarker}. */
  private static boolean afterDup(AbstractInsnNode[] code, int i) {
    for (int k = i - 1; k >= 0; k--) {
      if (code[k].getOpcode() >= 0) {
        return code[k].getOpcode() == Opcodes.DUP;
      }
    }
    return false;
  }

  private static int[] distinctFields(List<Integer> group, Access[] accesses) {
    return group.stream().mapToInt(i -> accesses[i].fieldId()).distinct().toArray();
  }

  /** Closes the group of {@code local} (every group when null): two fields or more get one hook at the last read. */
  private static void close(Map<Integer, List<Integer>> open, Integer local, Access[] accesses, int[] fieldOrdinal,
                            BitSet unchecked, Map<Integer, int[]> combined) {
    List<List<Integer>> closing = new ArrayList<>();
    if (local == null) {
      closing.addAll(open.values());
      open.clear();
    } else if (open.containsKey(local)) {
      closing.add(open.remove(local));
    }
    for (List<Integer> group : closing) {
      int[] fields = distinctFields(group, accesses);
      if (fields.length < 2) {
        continue;
      }
      int last = group.get(group.size() - 1);
      for (int i : group) {
        if (i != last) {
          unchecked.set(fieldOrdinal[i]);
        }
      }
      combined.put(fieldOrdinal[last], fields);
    }
  }

  private static BitSet full(int width) {
    BitSet b = new BitSet(width);
    b.set(0, width);
    return b;
  }

  /** The facts after {@code insn}, from those before it. */
  private void transfer(AbstractInsnNode insn, Access access, BitSet facts) {
    int op = insn.getOpcode();
    if (access != null) {
      if (access.otherClassStatic() && (access.key() < 0 || !facts.get(access.key()))) {
        facts.clear(); // the class may be initialised here: its <clinit> may synchronise
      }
      if (access.key() < 0) {
        return;
      }
      if (access.checked() && (access.write() || readsCover)) {
        facts.set(access.key());
      }
      return;
    }
    if (synchronises(insn)) {
      facts.clear();
    } else if (insn instanceof VarInsnNode v && v.getOpcode() >= Opcodes.ISTORE && v.getOpcode() <= Opcodes.ASTORE) {
      killLocal(facts, v.var);
      if (v.getOpcode() == Opcodes.LSTORE || v.getOpcode() == Opcodes.DSTORE) {
        killLocal(facts, v.var + 1);
      }
    } else if (insn instanceof IincInsnNode inc) {
      killLocal(facts, inc.var);
    }
  }

  /**
   * Whether an instruction that is not a (non-volatile) access may synchronise or run code the agent does not see: a
   * volatile or unresolved field access, a call (but to pure {@code Math}), an invokedynamic or dynamic constant, a
   * monitor, {@code new} (it may initialise a class).
   */
  private static boolean synchronises(AbstractInsnNode insn) {
    int op = insn.getOpcode();
    if (insn instanceof FieldInsnNode) {
      return true;
    }
    if (insn instanceof MethodInsnNode m) {
      return !(op == Opcodes.INVOKESTATIC && CountedLoops.pureMath(m));
    }
    return op == Opcodes.INVOKEDYNAMIC || op == Opcodes.MONITORENTER || op == Opcodes.MONITOREXIT
        || op == Opcodes.NEW || (insn instanceof LdcInsnNode l && l.cst instanceof ConstantDynamic);
  }

  private void killLocal(BitSet facts, int local) {
    BitSet named = byLocal.get(local);
    if (named != null) {
      facts.andNot(named);
    }
  }

  /**
   * A field access: a volatile one, or one we cannot resolve, is no access here (it synchronises or may); a final one,
   * or a coverage probe, is not checked at all; a hoisted read is checked elsewhere.
   */
  private Access fieldAccess(FieldInsnNode f, Frame<Val> frame, boolean isHoisted) {
    ClassHierarchy.ResolvedField field = ctx.hierarchy().resolveField(ctx.loader(), f.owner, f.name);
    if (field == null || field.isVolatile()) {
      return null;
    }
    int op = f.getOpcode();
    boolean write = op == Opcodes.PUTFIELD || op == Opcodes.PUTSTATIC;
    boolean checked = !field.isFinal() && !isHoisted && !ClassFilter.isCoverageField(f.name);
    String declaring = field.declaringClass();
    if (op == Opcodes.GETSTATIC || op == Opcodes.PUTSTATIC) {
      boolean other = !declaring.equals(owner) && !f.owner.equals(owner)
          && !ctx.hierarchy().quietInitialisation(ctx.loader(), declaring);
      return new Access(key("S " + declaring + "." + f.name + " " + f.desc), write, checked, other, -1, -1);
    }
    Val receiver = frame.getStack(frame.getStackSize() - (write ? 2 : 1));
    if (receiver.local < 0) {
      return new Access(-1, write, checked, false, -1, -1);
    }
    int key = key("F " + receiver.local + " " + declaring + "." + f.name + " " + f.desc);
    byLocal.computeIfAbsent(receiver.local, k -> new BitSet()).set(key);
    return new Access(key, write, checked, false, receiver.local, checked ? ctx.ids().field(declaring, f.name) : -1);
  }

  private Access elementAccess(int op, Frame<Val> frame, boolean isHoisted) {
    boolean write = op >= Opcodes.IASTORE;
    int top = frame.getStackSize() - (write ? 3 : 2);
    Val array = frame.getStack(top);
    Val index = frame.getStack(top + 1);
    if (array.local < 0 || (index.local < 0 && index.constant == null)) {
      return new Access(-1, write, !isHoisted, false, -1, -1);
    }
    String at = index.local >= 0 ? "l" + index.local + (index.offset == 0 ? "" : "+" + index.offset)
        : "c" + index.constant;
    int key = key("A " + array.local + " " + at);
    byLocal.computeIfAbsent(array.local, k -> new BitSet()).set(key);
    if (index.local >= 0) {
      byLocal.computeIfAbsent(index.local, k -> new BitSet()).set(key);
    }
    return new Access(key, write, !isHoisted, false, -1, -1);
  }

  private int key(String location) {
    return keys.computeIfAbsent(location, k -> keys.size());
  }

  /**
   * A value on the operand stack: its basic type, and the local it was loaded from ({@code local}, while that local is
   * not stored again) or the int constant it is ({@code constant}). Locals themselves hold plain values.
   */
  static final class Val extends BasicValue {
    final int local;
    final Integer constant;
    /** For an int: the value is {@code local + offset} (an index {@code i + 1}); 0 for anything else. */
    final int offset;
    /** Offsets beyond this are left unnamed (no index arithmetic overflows within them). */
    static final int MAX_OFFSET = 1 << 16;

    Val(Type type, int local, Integer constant) {
      this(type, local, constant, 0);
    }

    Val(Type type, int local, Integer constant, int offset) {
      this(type, local, constant, offset, null, -1);
    }

    /**
     * An array read from a field: {@code path} names the field ("owner.name") and {@code pathLocal} the local holding
     * the receiver (-1 for a static), while that local is not stored again.
     */
    final String path;
    final int pathLocal;

    Val(Type type, int local, Integer constant, int offset, String path, int pathLocal) {
      super(type);
      this.local = local;
      this.constant = constant;
      this.offset = offset;
      this.path = path;
      this.pathLocal = pathLocal;
    }

    static Val of(BasicValue v) {
      return v == null ? null : v instanceof Val x && x.local < 0 && x.constant == null && x.path == null ? x
          : new Val(v.getType(), -1, null);
    }

    Val plain() {
      return local < 0 && constant == null && path == null ? this : new Val(getType(), -1, null);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Val v && super.equals(v) && local == v.local && offset == v.offset
          && java.util.Objects.equals(constant, v.constant) && java.util.Objects.equals(path, v.path)
          && pathLocal == v.pathLocal;
    }

    @Override
    public int hashCode() {
      return super.hashCode() * 31 + local;
    }
  }

  /** {@link BasicInterpreter} whose stack values remember the local or int constant they came from. */
  private static final class Locals extends Interpreter<Val> {
    private final BasicInterpreter basic = new BasicInterpreter();

    Locals() {
      super(Opcodes.ASM9);
    }

    @Override
    public Val newValue(Type type) {
      BasicValue v = basic.newValue(type);
      return v == null ? null : v == BasicValue.UNINITIALIZED_VALUE ? UNINITIALIZED : Val.of(v);
    }

    @Override
    public Val newOperation(AbstractInsnNode insn) throws AnalyzerException {
      int op = insn.getOpcode();
      if (op >= Opcodes.ICONST_M1 && op <= Opcodes.ICONST_5) {
        return new Val(Type.INT_TYPE, -1, op - Opcodes.ICONST_0);
      }
      if (op == Opcodes.BIPUSH || op == Opcodes.SIPUSH) {
        return new Val(Type.INT_TYPE, -1, ((IntInsnNode) insn).operand);
      }
      if (op == Opcodes.GETSTATIC && ((FieldInsnNode) insn).desc.startsWith("[")) {
        FieldInsnNode f = (FieldInsnNode) insn;
        return new Val(basic.newOperation(insn).getType(), -1, null, 0, f.owner + "." + f.name, -1);
      }
      return Val.of(basic.newOperation(insn));
    }

    @Override
    public Val copyOperation(AbstractInsnNode insn, Val value) {
      int op = insn.getOpcode();
      if (op >= Opcodes.ILOAD && op <= Opcodes.ALOAD) {
        return new Val(value.getType(), ((VarInsnNode) insn).var, null);
      }
      if (op >= Opcodes.ISTORE && op <= Opcodes.ASTORE) {
        return value.plain();
      }
      return value; // dup and swap: the same value
    }

    @Override
    public Val unaryOperation(AbstractInsnNode insn, Val value) throws AnalyzerException {
      if (insn.getOpcode() == Opcodes.GETFIELD && ((FieldInsnNode) insn).desc.startsWith("[") && value.local >= 0) {
        FieldInsnNode f = (FieldInsnNode) insn;
        return new Val(basic.unaryOperation(insn, value).getType(), -1, null, 0, f.owner + "." + f.name,
            value.local);
      }
      return Val.of(basic.unaryOperation(insn, value));
    }

    @Override
    public Val binaryOperation(AbstractInsnNode insn, Val v1, Val v2) throws AnalyzerException {
      int op = insn.getOpcode();
      if (op == Opcodes.IADD || op == Opcodes.ISUB) { // an int local plus or minus a constant: i + 1, i - 2
        long sum = Long.MAX_VALUE;
        if (v1.local >= 0 && v2.constant != null) {
          sum = (long) v1.offset + (op == Opcodes.IADD ? v2.constant : -(long) v2.constant);
        } else if (op == Opcodes.IADD && v2.local >= 0 && v1.constant != null) {
          sum = (long) v2.offset + v1.constant;
        }
        if (Math.abs(sum) <= Val.MAX_OFFSET) {
          return new Val(Type.INT_TYPE, v1.local >= 0 ? v1.local : v2.local, null, (int) sum);
        }
      }
      return Val.of(basic.binaryOperation(insn, v1, v2));
    }

    @Override
    public Val ternaryOperation(AbstractInsnNode insn, Val v1, Val v2, Val v3) throws AnalyzerException {
      return Val.of(basic.ternaryOperation(insn, v1, v2, v3));
    }

    @Override
    public Val naryOperation(AbstractInsnNode insn, List<? extends Val> values) throws AnalyzerException {
      return Val.of(basic.naryOperation(insn, values));
    }

    @Override
    public void returnOperation(AbstractInsnNode insn, Val value, Val expected) {
    }

    @Override
    public Val merge(Val a, Val b) {
      if (a.equals(b)) {
        return a;
      }
      if (a.getType() == null || b.getType() == null || !a.getType().equals(b.getType())) {
        return UNINITIALIZED;
      }
      return a.plain();
    }

    private static final Val UNINITIALIZED = new Val(null, -1, null);
  }

  /** A frame that forgets, when a local is stored, that stack values came from it. */
  private static final class LocalsFrame extends Frame<Val> {
    LocalsFrame(int numLocals, int numStack) {
      super(numLocals, numStack);
    }

    LocalsFrame(Frame<? extends Val> frame) {
      super(frame);
    }

    @Override
    public void execute(AbstractInsnNode insn, Interpreter<Val> interpreter) throws AnalyzerException {
      super.execute(insn, interpreter);
      int stored = -1;
      int width = 1;
      if (insn instanceof VarInsnNode v && v.getOpcode() >= Opcodes.ISTORE && v.getOpcode() <= Opcodes.ASTORE) {
        stored = v.var;
        width = v.getOpcode() == Opcodes.LSTORE || v.getOpcode() == Opcodes.DSTORE ? 2 : 1;
      } else if (insn instanceof IincInsnNode inc) {
        // `iload p; iinc p, 1`: the value on the stack is p - 1 now (`b[p++]`)
        for (int i = 0; i < getStackSize(); i++) {
          Val v = getStack(i);
          if (v.local == inc.var) {
            long offset = (long) v.offset - inc.incr;
            setStack(i, Type.INT_TYPE.equals(v.getType()) && Math.abs(offset) <= Val.MAX_OFFSET
                ? new Val(v.getType(), v.local, null, (int) offset) : v.plain());
          }
        }
        return;
      }
      if (stored < 0) {
        return;
      }
      for (int i = 0; i < getStackSize(); i++) {
        Val v = getStack(i);
        if ((v.local >= stored && v.local < stored + width)
            || (v.pathLocal >= stored && v.pathLocal < stored + width)) {
          setStack(i, v.plain());
        }
      }
    }
  }
}
