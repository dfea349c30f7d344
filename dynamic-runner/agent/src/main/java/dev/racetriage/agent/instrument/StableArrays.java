package dev.racetriage.agent.instrument;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.MultiANewArrayInsnNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicInterpreter;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.Interpreter;
import org.objectweb.asm.tree.analysis.Value;

/**
 * Arrays no element access of which can race (detect mode): a class's <em>stable</em> arrays, the lookup tables a
 * class builds once and then only reads ({@code GenericGF.expTable}, a codec's decoding table, a CRC table). A field
 * is stable when it is {@code private final}, array-typed, and
 * <ul>
 *   <li>only its declaring class's initialiser of its kind ({@code <clinit>} for a static, a constructor for an
 *       instance field, on {@code this}) stores it, and only an array that initialiser allocated
 *       ({@code newarray}, {@code anewarray}, {@code multianewarray}) and lets out nowhere else;</li>
 *   <li>every value read from it, in every method of the class, is only indexed for loads, measured, compared, tested
 *       for null, locked, kept in locals or handed to a JDK call that reads it and keeps nothing
 *       ({@link ConfinedArrays#readsOnly}, the read ranges of {@link BulkArrayCalls}) — never stored anywhere, passed
 *       to other code, returned or thrown — and is written into (an element store, a bulk call's write range) only by
 *       that initialiser;</li>
 *   <li>for an instance field, the constructor stores the field and writes its elements before {@code this} can leave
 *       it: no such store is reachable from an instruction that passes {@code this} on (an argument, a receiver of a
 *       method, a value stored anywhere), and the class extends {@code Object} (whose constructor keeps nothing).</li>
 * </ul>
 * No other class can reach a private field, except the members of its nest (Java 11): their class files are read and
 * a field any of them names is not stable. So every element write of a stable array happens in its initialiser
 * before the array is reachable by another thread — after class initialisation, which orders every later use of the
 * class after it, or before the constructor ends, with the final field's freeze (JLS 17.5: a reader through the final
 * field sees the array's elements at least as up to date as the field) — and no element access of it can race. Their
 * hooks (a weak-table entry, a shadow, element records, a cover check per read) are pure cost: the loads are left
 * unhooked, and so are the initialiser's stores and the hooks that name the array after its field.
 *
 * <p>The <em>rows</em> of a stable array of arrays ({@code float[][] RATIOS_TABLE}, and rows of rows at any depth) are
 * stable too (decided apart: rows that are not leave the field's own loads unhooked) when
 * <ul>
 *   <li>every row value — what an array load takes out of the field's array or out of a row of it, in any method — is
 *       used as the first rule asks of the field's values: only indexed for loads, measured, compared, tested for
 *       null, locked, kept in locals or handed to a JDK call that reads it, and written into only by the field's
 *       initialiser (on the right receiver); a JDK call that would hand rows to other code or copy them out (a copy of
 *       the table, {@code System.arraycopy} or a sort of an array of references, {@code Objects.equals}) lets them
 *       out;</li>
 *   <li>every row the array can hold was allocated by that initialiser and is held by nothing else: the rows of the
 *       {@code multianewarray} it stores, or arrays it allocated ({@code newarray}, {@code anewarray}, a copy of
 *       primitives) and stored as elements ({@code aastore}) into the field's array or rows, or into the fresh arrays
 *       it stores there, and let out nowhere else — nor their holders; an {@code aastore} of anything else (another
 *       field's array, a parameter, a row of another array) into them, a bulk write of references, or an array a
 *       copy returned (its rows are the original's) leaves the rows unstable.</li>
 * </ul>
 * A row is then reachable only through the stable field, and allocated and written only by its initialiser: every
 * write to it happens before class initialisation completes, or before the constructor's freeze (which covers what
 * the final field reaches), as the field's own elements do, and its loads, the initialiser's stores into it and the
 * bulk calls all of whose ranges are such rows go unhooked too.
 * Reflection and {@code Unsafe} writes into such an array are not seen (as for every final field).
 */
final class StableArrays {
  static final StableArrays NONE = new StableArrays(Set.of(), Set.of(), Map.of());

  /**
   * What one method (its original code) leaves unhooked, as ordinals: among its array loads and stores
   * ({@code elements}), its field instructions whose array needs no name ({@code names}) and its bulk array calls
   * ({@link BulkArrayCalls}) every range of which is stable ({@code bulkCalls}). Callers get copies.
   */
  record Skips(BitSet elements, BitSet names, BitSet bulkCalls) {
    static final Skips NONE = new Skips(new BitSet(), new BitSet(), new BitSet());

    boolean isEmpty() {
      return elements.isEmpty() && names.isEmpty() && bulkCalls.isEmpty();
    }

    private Skips copy() {
      return new Skips((BitSet) elements.clone(), (BitSet) names.clone(), (BitSet) bulkCalls.clone());
    }
  }

  private final Set<String> fields;
  /** The stable fields whose rows (at any depth) are stable too: a subset of {@link #fields}. */
  private final Set<String> rows;
  /** Per method (name + descriptor), when it skips anything. */
  private final Map<String, Skips> skips;

  private StableArrays(Set<String> fields, Set<String> rows, Map<String, Skips> skips) {
    this.fields = fields;
    this.rows = rows;
    this.skips = skips;
  }

  /** The stable fields' names (tests, the docs). */
  Set<String> fields() {
    return fields;
  }

  /** The stable fields whose rows are stable too, their element accesses unhooked as well (tests, the docs). */
  Set<String> rows() {
    return rows;
  }

  boolean isEmpty() {
    return fields.isEmpty();
  }

  /** What method {@code name + descriptor} leaves unhooked (a copy; empty if nothing). */
  Skips skips(String name, String descriptor) {
    Skips s = skips.get(name + descriptor);
    return (s == null ? Skips.NONE : s).copy();
  }

  /** Reads another class of the nest: its file's bytes, or null if it cannot be found. */
  interface ClassFiles {
    byte[] read(String internalName);
  }

  /**
   * The stable arrays of the class {@code reader} holds; {@code files} reads its nest's other members and holders'
   * classes. Anything this analysis cannot read (a malformed member's class file) leaves every check in place: it
   * never costs the class its instrumentation.
   */
  static StableArrays of(ClassReader reader, ClassFiles files) {
    try {
      return find(reader, files);
    } catch (RuntimeException e) {
      return NONE;
    }
  }

  private static StableArrays find(ClassReader reader, ClassFiles files) {
    if ((reader.getAccess() & (Opcodes.ACC_INTERFACE | Opcodes.ACC_ANNOTATION | Opcodes.ACC_MODULE)) != 0) {
      return NONE;
    }
    Set<String> candidates = new HashSet<>();
    Map<String, Boolean> statics = new HashMap<>();
    Map<String, String> types = new HashMap<>();
    reader.accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
        if ((access & (Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL)) == (Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL)
            && (access & Opcodes.ACC_VOLATILE) == 0 && descriptor.startsWith("[")) {
          candidates.add(name);
          statics.put(name, (access & Opcodes.ACC_STATIC) != 0);
          types.put(name, descriptor);
        }
        return null;
      }
    }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    if (candidates.isEmpty()) {
      return NONE;
    }
    ClassNode node = new ClassNode(Opcodes.ASM9);
    reader.accept(node, ClassReader.SKIP_FRAMES);
    String self = node.name;
    nestAccesses(node, files, candidates);
    if (candidates.isEmpty()) {
      return NONE;
    }
    Set<String> producers = producers(node, candidates, statics, types);
    Map<MethodNode, Flow> flows = new IdentityHashMap<>();
    for (MethodNode m : node.methods) {
      if ((m.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0 || m.instructions.size() == 0) {
        continue;
      }
      boolean initialiser = m.name.equals("<init>") || m.name.equals("<clinit>");
      if (!initialiser && !namesAny(m, self, candidates)) {
        continue; // no access to any candidate: nothing to learn, nothing to skip
      }
      Flow flow = new Flow(self, m, candidates, statics, types, node.superName, producers, false).withFiles(files);
      if (!flow.analyze()) {
        for (String f : flow.named) {
          candidates.remove(f); // not analysable (too large, a subroutine): every candidate it names loses
        }
        if (m.name.equals("<init>")) {
          candidates.removeIf(f -> !statics.get(f));
        } else if (m.name.equals("<clinit>")) {
          candidates.removeIf(statics::get);
        }
        continue;
      }
      flows.put(m, flow);
    }
    for (Flow flow : flows.values()) {
      candidates.removeAll(flow.unstable);
    }
    // one array stored in several fields is one table: if any of them is unstable (written by a method, say), so are
    // the others, to a fixed point
    for (boolean changed = true; changed; ) {
      changed = false;
      for (Flow flow : flows.values()) {
        for (Set<String> sharing : flow.fieldsSharingAnArray()) {
          if (!candidates.containsAll(sharing) && candidates.removeAll(sharing)) {
            changed = true;
          }
        }
      }
    }
    if (candidates.isEmpty()) {
      return NONE;
    }
    // the rows of a stable field are stable unless some method lets one out, writes one outside the initialiser or
    // the initialiser puts in its array anything but arrays of its own (Flow#rowsAreTheInitialisers)
    Set<String> rows = new HashSet<>();
    for (String f : candidates) {
      if (types.get(f).charAt(1) == '[' || types.get(f).charAt(1) == 'L') {
        rows.add(f); // an array of arrays, or of objects that may be arrays: an array of primitives has no rows
      }
    }
    for (Flow flow : flows.values()) {
      rows.removeAll(flow.unstableRows);
    }
    Map<String, Skips> skips = new HashMap<>();
    for (Map.Entry<MethodNode, Flow> e : flows.entrySet()) {
      Skips s = e.getValue().skipped(candidates, rows);
      if (!s.isEmpty()) {
        skips.put(e.getKey().name + e.getKey().desc, s);
      }
    }
    return new StableArrays(Set.copyOf(candidates), Set.copyOf(rows), skips);
  }

  /**
   * The class's private static methods that return a fresh array: every value they return is an array they
   * allocated (or a producer's, see {@link Flow#freshCall}) and let out nowhere else — javac's enum {@code $values()},
   * a table builder ({@code buildVersions()}). An initialiser's call of one is an allocation of its own. Found to a
   * fixed point (a builder may call another), as {@code name + descriptor}.
   */
  private static Set<String> producers(ClassNode node, Set<String> candidates, Map<String, Boolean> statics,
                                       Map<String, String> types) {
    List<MethodNode> helpers = new ArrayList<>();
    for (MethodNode m : node.methods) {
      if ((m.access & (Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC)) == (Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC)
          && (m.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0 && m.instructions.size() > 0
          && Type.getReturnType(m.desc).getSort() == Type.ARRAY) {
        helpers.add(m);
      }
    }
    Set<String> producers = new HashSet<>();
    for (boolean changed = !helpers.isEmpty(); changed; ) {
      changed = false;
      for (MethodNode m : helpers) {
        if (producers.contains(m.name + m.desc)) {
          continue;
        }
        Flow flow = new Flow(node.name, m, candidates, statics, types, node.superName, producers, true);
        if (flow.analyze() && flow.returnsOnlyFresh()) {
          producers.add(m.name + m.desc);
          changed = true;
        }
      }
    }
    return producers;
  }

  private static boolean namesAny(MethodNode m, String self, Set<String> candidates) {
    for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
      if (insn instanceof FieldInsnNode f && f.owner.equals(self) && candidates.contains(f.name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Removes the candidates another member of the class's nest names (it can read or write a private field directly).
   * A nest whose members cannot all be read keeps no candidate.
   */
  private static void nestAccesses(ClassNode node, ClassFiles files, Set<String> candidates) {
    List<String> others = new ArrayList<>();
    if (node.nestHostClass != null) {
      byte[] host = files.read(node.nestHostClass);
      if (host == null) {
        candidates.clear();
        return;
      }
      ClassNode h = new ClassNode(Opcodes.ASM9);
      new ClassReader(host).accept(h, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
      others.add(node.nestHostClass);
      if (h.nestMembers != null) {
        others.addAll(h.nestMembers);
      }
    } else if (node.nestMembers != null) {
      others.addAll(node.nestMembers);
    }
    others.remove(node.name);
    for (String other : others) {
      byte[] bytes = files.read(other);
      if (bytes == null) {
        candidates.clear();
        return;
      }
      new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                         String[] exceptions) {
          return new MethodVisitor(Opcodes.ASM9) {
            @Override
            public void visitFieldInsn(int opcode, String owner, String field, String desc) {
              if (owner.equals(node.name)) {
                candidates.remove(field);
              }
            }
          };
        }
      }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    }
  }

  /** A value: where it may come from — candidate fields' loads, fresh arrays, {@code this} — and whether elsewhere. */
  static final class Val implements Value {
    final int size;
    final Set<Object> origins;
    final boolean other;

    Val(int size, Set<Object> origins, boolean other) {
      this.size = size;
      this.origins = origins;
      this.other = other;
    }

    @Override
    public int getSize() {
      return size;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Val v && v.size == size && v.other == other && v.origins.equals(origins);
    }

    @Override
    public int hashCode() {
      return origins.hashCode() * 31 + size * 2 + (other ? 1 : 0);
    }
  }

  /** The origin of {@code this} in a constructor. */
  private static final Object THIS = new Object();
  /** A holder's constructor: the origin of its arguments, which may be the caller's {@code this}. */
  private static final Object PARAM = new Object();

  /** An object a constructor allocates ({@code new}): it may receive {@code this} (a holder, {@link Flow#holders}). */
  private record NewObject(AbstractInsnNode insn) {
  }

  /** A load of candidate field {@code name}: on {@code this} in its initialiser ({@code own}), or anywhere else. */
  private record Load(String name, boolean own) {
  }

  /**
   * A row of candidate {@code name}'s array, at any depth: what an array load takes out of a {@link Load} of it or out
   * of another of its rows ({@code own} as for that load). Stable when the field is and its rows are.
   */
  private record Row(String name, boolean own) {
  }

  /**
   * A row, at any depth, of the array allocation {@code parent} of this initialiser: stable when {@code parent} is one
   * of the arrays a stable field with stable rows may hold ({@link Flow#rowClosures}).
   */
  private record FreshRow(AbstractInsnNode parent) {
  }

  /** One method's data flow: what it does with candidates' values, fresh arrays and {@code this}. */
  private static final class Flow extends Interpreter<Val> {
    /** Names of the read-only JDK calls ({@link ConfinedArrays#readsOnly}) that compare with another argument. */
    private static final Set<String> COMPARES = Set.of("equals", "deepEquals", "mismatch", "compare", "binarySearch");
    /** {@code java.util.Arrays}' bulk calls that hand the elements they read to no other code but theirs. */
    private static final Set<String> KEEPS_ROWS_IN = Set.of("hashCode", "deepHashCode", "toString", "deepToString");
    private final String self;
    private final MethodNode method;
    private final Set<String> candidates;
    private final Map<String, Boolean> statics;
    /** The candidates' descriptors: the rows of an array of primitives' arrays hold no references. */
    private final Map<String, String> types;
    private final boolean ctor;
    private final boolean clinit;
    private final boolean objectSuper;
    /** The class's fresh-array producers ({@link StableArrays#producers}). */
    private final Set<String> producers;
    /** Analysing a helper as a producer: its allocations are tracked, its returns recorded, not escapes. */
    private final boolean producer;
    /** Analysing another class's constructor as a holder of the caller's {@code this} ({@link #holderKeeps}). */
    private boolean holder;
    /** Holder mode: the locals of the arguments that receive the caller's {@code this}. */
    private Set<Integer> taintedLocals = Set.of();
    /** Reads other classes' files: the holders' (null: no holder is analysed, every `new X(this)` is a leak). */
    private ClassFiles files;
    /** Objects this constructor allocated that received {@code this} from a holder's constructor. */
    private final Set<AbstractInsnNode> holders = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Per allocated object, where it may have escaped (a leak of {@code this} if it is a holder). */
    private final Map<AbstractInsnNode, Set<AbstractInsnNode>> objectEscapes = new IdentityHashMap<>();
    /** Per field of {@code this}: the allocated objects (or {@code this}) stored in it here, and its loads here. */
    private final Map<String, Set<Object>> heldIn = new HashMap<>();
    private final Map<String, Set<AbstractInsnNode>> loadsOf = new HashMap<>();
    /** Producer mode: false once a return may be anything but a fresh array of its own. */
    private boolean returnsFresh = true;
    private final Set<AbstractInsnNode> returned = Collections.newSetFromMap(new IdentityHashMap<>());
    private final BasicInterpreter sizes = new BasicInterpreter();
    /** Candidates this method names. */
    final Set<String> named = new HashSet<>();
    /** Candidates this method makes unstable by itself. */
    final Set<String> unstable = new HashSet<>();
    /** Fresh arrays (allocation instructions) that escaped other than into a candidate's store. */
    private final Set<AbstractInsnNode> freshEscaped = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Per candidate, the fresh arrays its stores in this initialiser may store. */
    private final Map<String, Set<AbstractInsnNode>> storedFresh = new HashMap<>();
    /** Instructions where {@code this} may leave the constructor. */
    private final Set<AbstractInsnNode> leaks = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Candidates a constructor stores or writes into (unstable if `this` leaves it). */
    private final Set<String> writtenHere = new HashSet<>();
    /** Candidates whose rows this method lets out, writes outside the initialiser or may fill with others' arrays. */
    final Set<String> unstableRows = new HashSet<>();
    /**
     * Fresh arrays that, or some row of which, may be reached other than through what holds them here, or that may
     * hold an element (a row) this initialiser did not allocate.
     */
    private final Set<AbstractInsnNode> freshRowsOut = Collections.newSetFromMap(new IdentityHashMap<>());
    /**
     * The fresh arrays this initialiser stores as elements ({@code aastore}): per holder — a fresh array (into it or
     * its rows) or a candidate (into its array or rows, its own in its initialiser).
     */
    private final Map<Object, Set<AbstractInsnNode>> elementsOf = new HashMap<>();
    /**
     * Per candidate whose rows this initialiser leaves stable, the fresh arrays its array may hold at any depth, the
     * array itself included ({@link #rowsAreTheInitialisers}).
     */
    private final Map<String, Set<AbstractInsnNode>> rowClosures = new HashMap<>();
    private Frame<Val>[] frames;

    Flow(String self, MethodNode method, Set<String> candidates, Map<String, Boolean> statics,
         Map<String, String> types, String superName, Set<String> producers, boolean producer) {
      super(Opcodes.ASM9);
      this.self = self;
      this.method = method;
      this.candidates = candidates;
      this.statics = statics;
      this.types = types;
      this.ctor = method.name.equals("<init>");
      this.clinit = method.name.equals("<clinit>");
      this.objectSuper = "java/lang/Object".equals(superName);
      this.producers = producers;
      this.producer = producer;
    }

    /** Producer mode, after {@link #analyze}: every return is a fresh array of its own that went nowhere else. */
    boolean returnsOnlyFresh() {
      if (!returnsFresh || returned.isEmpty() || !unstable.isEmpty()) {
        return false;
      }
      for (AbstractInsnNode n : returned) {
        if (freshEscaped.contains(n)) {
          return false;
        }
      }
      return true;
    }

    /** With the reader of other classes' files, for the holders' constructors. */
    Flow withFiles(ClassFiles classFiles) {
      this.files = classFiles;
      return this;
    }

    /**
     * Whether {@code owner}'s constructor {@code desc} keeps the caller's {@code this} (the arguments at the locals
     * {@code tainted}) only in its own fields: it extends {@code Object}, and neither its {@code this} nor that
     * argument goes anywhere else (an argument, a receiver, a value stored elsewhere, a field it stored it in loaded
     * again; {@code this(…)} too). GenericGF's {@code new GenericGFPoly(this, …)}. A class file that cannot be read
     * keeps nothing safe.
     */
    private boolean holderKeeps(String owner, String desc, Set<Integer> tainted) {
      byte[] bytes = files == null || owner.equals(self) ? null : files.read(owner);
      if (bytes == null) {
        return false;
      }
      ClassNode node = new ClassNode(Opcodes.ASM9);
      try {
        new ClassReader(bytes).accept(node, ClassReader.SKIP_FRAMES);
      } catch (RuntimeException e) {
        return false;
      }
      for (MethodNode m : node.methods) {
        if (m.name.equals("<init>") && m.desc.equals(desc)) {
          Flow flow = new Flow(owner, m, Set.of(), Map.of(), Map.of(), node.superName, Set.of(), false);
          flow.holder = true;
          flow.taintedLocals = tainted;
          return flow.analyze() && flow.leaks.isEmpty();
        }
      }
      return false;
    }

    /** Whether this method tracks its own allocations: an initialiser, or a helper analysed as a producer. */
    private boolean tracksFresh() {
      return ctor || clinit || producer;
    }

    /**
     * A call that returns a new array no one else holds: an array's {@code clone()}, {@code Arrays.copyOf}/{@code
     * copyOfRange}, {@code String.toCharArray}/{@code getBytes}, or one of the class's producers.
     */
    private boolean freshCall(MethodInsnNode call, int op) {
      if (Type.getReturnType(call.desc).getSort() != Type.ARRAY) {
        return false;
      }
      if (op == Opcodes.INVOKEVIRTUAL && call.owner.startsWith("[") && call.name.equals("clone")) {
        return true;
      }
      if (op == Opcodes.INVOKESTATIC && call.owner.equals("java/util/Arrays")
          && (call.name.equals("copyOf") || call.name.equals("copyOfRange"))) {
        return true;
      }
      if (op == Opcodes.INVOKEVIRTUAL && call.owner.equals("java/lang/String")
          && (call.name.equals("toCharArray") || call.name.equals("getBytes"))) {
        return true;
      }
      return op == Opcodes.INVOKESTATIC && call.owner.equals(self) && producers.contains(call.name + call.desc);
    }

    boolean analyze() {
      for (AbstractInsnNode insn = method.instructions.getFirst(); insn != null; insn = insn.getNext()) {
        if (insn instanceof FieldInsnNode f && f.owner.equals(self) && candidates.contains(f.name)) {
          named.add(f.name);
        }
      }
      if (FrameEscapes.tooLarge(method)) {
        return false;
      }
      try {
        frames = new Analyzer<>(this).analyze(self, method);
      } catch (AnalyzerException | RuntimeException e) {
        return false;
      }
      if (ctor) {
        holdersLeaks();
        if (!leaks.isEmpty()) { // `this` may leave before the constructor ends: no freeze orders its tables' writes
          for (String f : writtenHere) {
            if (!statics.get(f)) {
              unstable.add(f);
            }
          }
        }
      }
      for (Map.Entry<String, Set<AbstractInsnNode>> e : storedFresh.entrySet()) {
        for (AbstractInsnNode n : e.getValue()) {
          if (freshEscaped.contains(n)) {
            unstable.add(e.getKey());
          }
        }
      }
      rowsAreTheInitialisers();
      return true;
    }

    /**
     * After the analysis, per candidate this initialiser stores or stores rows into: the fresh arrays its array may
     * hold at any depth (its {@link #rowClosures}: what it stores, and what is stored into those as elements) — or its
     * rows unstable when one of them may be reached another way (let out, held by an array outside them or by
     * another field) or may hold what this initialiser did not allocate (a copy's rows, an element of another
     * origin, a bulk write's).
     */
    private void rowsAreTheInitialisers() {
      Map<AbstractInsnNode, Set<Object>> holders = new IdentityHashMap<>();
      Set<String> fields = new HashSet<>(storedFresh.keySet());
      for (Map.Entry<Object, Set<AbstractInsnNode>> e : elementsOf.entrySet()) {
        if (e.getKey() instanceof String f) {
          fields.add(f);
        }
        for (AbstractInsnNode n : e.getValue()) {
          holders.computeIfAbsent(n, k -> new HashSet<>()).add(e.getKey());
        }
      }
      for (Map.Entry<String, Set<AbstractInsnNode>> e : storedFresh.entrySet()) {
        for (AbstractInsnNode n : e.getValue()) {
          holders.computeIfAbsent(n, k -> new HashSet<>()).add(e.getKey());
        }
      }
      for (String field : fields) {
        Set<AbstractInsnNode> closure = Collections.newSetFromMap(new IdentityHashMap<>());
        List<AbstractInsnNode> work = new ArrayList<>(storedFresh.getOrDefault(field, Set.of()));
        work.addAll(elementsOf.getOrDefault(field, Set.of()));
        while (!work.isEmpty()) {
          AbstractInsnNode n = work.remove(work.size() - 1);
          if (closure.add(n)) {
            work.addAll(elementsOf.getOrDefault(n, Set.of()));
          }
        }
        boolean own = true;
        for (AbstractInsnNode n : closure) {
          own &= !freshRowsOut.contains(n) && ownRowsOnly(n);
          for (Object h : holders.getOrDefault(n, Set.of())) {
            own &= h.equals(field) || h instanceof AbstractInsnNode p && closure.contains(p);
          }
        }
        if (own) {
          rowClosures.put(field, closure);
        } else {
          unstableRows.add(field);
        }
      }
    }

    /**
     * Whether fresh array {@code n} holds no array another may reach when it is made: an allocation (nulls, or a
     * {@code multianewarray}'s rows, fresh too), or a copy of primitives (a copy of an array of arrays shares its
     * rows, and so does a producer's table: not followed).
     */
    private boolean ownRowsOnly(AbstractInsnNode n) {
      int op = n.getOpcode();
      return op == Opcodes.NEWARRAY || op == Opcodes.ANEWARRAY || op == Opcodes.MULTIANEWARRAY || !holdsReferences(n);
    }

    /**
     * Whether the elements of a value of origin {@code o} may be references — rows, at any depth for a row: all but
     * an array of primitives (a candidate's, a fresh one) and the rows of a two-dimensional one; unknown types may.
     */
    private boolean holdsReferences(Object o) {
      String type = o instanceof Load l ? types.get(l.name())
          : o instanceof Row r ? rowType(types.get(r.name()))
          : o instanceof AbstractInsnNode n ? typeOf(n)
          : o instanceof FreshRow r ? rowType(typeOf(r.parent())) : null;
      return type == null || type.length() != 2 || type.charAt(0) != '[';
    }

    /** The type of the rows of an array of type {@code type} (the first level's), or null if not an array's. */
    private static String rowType(String type) {
      return type != null && type.startsWith("[[") ? type.substring(1) : null;
    }

    /**
     * The type of fresh array {@code n} (a {@code newarray}'s as {@code [I}: only its shape matters), or null if not
     * known.
     */
    private static String typeOf(AbstractInsnNode n) {
      if (n.getOpcode() == Opcodes.NEWARRAY) {
        return "[I";
      }
      if (n instanceof TypeInsnNode t && n.getOpcode() == Opcodes.ANEWARRAY) {
        return "[" + (t.desc.startsWith("[") ? t.desc : "L" + t.desc + ";");
      }
      if (n instanceof MultiANewArrayInsnNode m) {
        return m.desc;
      }
      if (n instanceof MethodInsnNode call) {
        return call.owner.startsWith("[") && call.name.equals("clone") ? call.owner
            : Type.getReturnType(call.desc).getDescriptor();
      }
      return null;
    }

    /**
     * A constructor, after the analysis: a holder that escaped lets {@code this} out, and so does any load of a field
     * of {@code this} that holds {@code this} or a holder (what is loaded can go anywhere).
     */
    private void holdersLeaks() {
      for (AbstractInsnNode h : holders) {
        leaks.addAll(objectEscapes.getOrDefault(h, Set.of()));
      }
      for (Map.Entry<String, Set<Object>> e : heldIn.entrySet()) {
        boolean keepsThis = false;
        for (Object o : e.getValue()) {
          keepsThis |= o == THIS || o == PARAM || (o instanceof AbstractInsnNode n && holders.contains(n));
        }
        if (keepsThis) {
          leaks.addAll(loadsOf.getOrDefault(e.getKey(), Set.of()));
        }
      }
    }

    private boolean initialiserOf(String field) {
      return statics.get(field) ? clinit : ctor;
    }

    /** The fields of each fresh array this initialiser stores in more than one candidate. */
    List<Set<String>> fieldsSharingAnArray() {
      Map<AbstractInsnNode, Set<String>> byArray = new IdentityHashMap<>();
      for (Map.Entry<String, Set<AbstractInsnNode>> e : storedFresh.entrySet()) {
        for (AbstractInsnNode n : e.getValue()) {
          byArray.computeIfAbsent(n, k -> new HashSet<>()).add(e.getKey());
        }
      }
      List<Set<String>> sharing = new ArrayList<>();
      for (Set<String> fields : byArray.values()) {
        if (fields.size() > 1) {
          sharing.add(fields);
        }
      }
      return sharing;
    }

    /**
     * In one walk over this method's code: its array loads and stores whose array may only be stable, its bulk calls
     * every range of which may only be, and its field instructions that load or store a stable field.
     */
    Skips skipped(Set<String> stable, Set<String> rows) {
      Skips skipped = new Skips(new BitSet(), new BitSet(), new BitSet());
      int element = 0;
      int bulkCall = 0;
      int field = 0;
      AbstractInsnNode[] insns = method.instructions.toArray();
      for (int i = 0; i < insns.length; i++) {
        AbstractInsnNode insn = insns[i];
        int op = insn.getOpcode();
        Frame<Val> frame = frames[i]; // null: unreachable code
        boolean load = ConfinedArrays.isArrayLoad(op);
        if (load || ConfinedArrays.isArrayStore(op)) {
          if (frame != null && onlyStable(frame.getStack(frame.getStackSize() - (load ? 2 : 3)), stable, rows)) {
            skipped.elements().set(element);
          }
          element++;
        } else if (insn instanceof FieldInsnNode f) {
          if (f.owner.equals(self) && stable.contains(f.name)) {
            skipped.names().set(field);
          }
          field++;
        } else if (insn instanceof MethodInsnNode call) {
          BulkArrayCalls.Model model = BulkArrayCalls.of(op, call.owner, call.name, call.desc);
          if (model == null) {
            continue;
          }
          boolean all = frame != null;
          if (all) {
            boolean init = op == Opcodes.INVOKESPECIAL && call.name.equals("<init>");
            int first = frame.getStackSize() - Type.getArgumentTypes(call.desc).length
                - (op == Opcodes.INVOKESTATIC ? 0 : 1);
            for (BulkArrayCalls.Range r : model.ranges()) {
              all &= onlyStable(frame.getStack(first + r.array() + (init ? 1 : 0)), stable, rows);
            }
          }
          if (all) {
            skipped.bulkCalls().set(bulkCall);
          }
          bulkCall++;
        }
      }
      return skipped;
    }

    /**
     * True if {@code v} may only be stable fields' arrays or fresh arrays of this initialiser stored only there, or
     * rows (at any depth) of stable fields with stable rows ({@code rows}) or of fresh arrays only they hold.
     */
    private boolean onlyStable(Val v, Set<String> stable, Set<String> rows) {
      if (v == null || v.other || v.origins.isEmpty()) {
        return false;
      }
      for (Object o : v.origins) {
        if (o instanceof Load l) {
          if (!stable.contains(l.name())) {
            return false;
          }
        } else if (o instanceof Row r) {
          if (!rows.contains(r.name())) {
            return false;
          }
        } else if (o instanceof FreshRow r) {
          if (!heldByStableRows(r.parent(), rows)) {
            return false;
          }
        } else if (o instanceof AbstractInsnNode n) {
          if ((freshEscaped.contains(n) || !storedOnlyInStable(n, stable)) && !heldByStableRows(n, rows)) {
            return false;
          }
        } else {
          return false;
        }
      }
      return true;
    }

    /** Whether fresh array {@code fresh} is one only stable fields with stable rows may hold, at any depth. */
    private boolean heldByStableRows(AbstractInsnNode fresh, Set<String> rows) {
      return heldOnlyBy(rowClosures, fresh, rows);
    }

    private boolean storedOnlyInStable(AbstractInsnNode fresh, Set<String> stable) {
      return heldOnlyBy(storedFresh, fresh, stable);
    }

    /** Whether some field of {@code byField} holds {@code fresh}, and every one that does is in {@code allowed}. */
    private static boolean heldOnlyBy(Map<String, Set<AbstractInsnNode>> byField, AbstractInsnNode fresh,
                                      Set<String> allowed) {
      boolean held = false;
      for (Map.Entry<String, Set<AbstractInsnNode>> e : byField.entrySet()) {
        if (e.getValue().contains(fresh)) {
          if (!allowed.contains(e.getKey())) {
            return false;
          }
          held = true;
        }
      }
      return held;
    }

    // ---- what a use does ----

    /**
     * {@code v} goes where this analysis cannot follow: its candidates are unstable, its fresh arrays escape (their
     * rows too), its candidates' rows are unstable, its fresh arrays' rows out.
     */
    private void escape(Val v, AbstractInsnNode at) {
      if (v == null) {
        return;
      }
      for (Object o : v.origins) {
        if (o instanceof Load l) {
          unstable.add(l.name());
        } else if (o instanceof Row r) {
          unstableRows.add(r.name());
        } else if (o instanceof FreshRow r) {
          freshRowsOut.add(r.parent());
        } else if (o instanceof AbstractInsnNode n) {
          freshEscaped.add(n);
          freshRowsOut.add(n);
        } else if (o instanceof NewObject n) {
          objectEscapes.computeIfAbsent(n.insn(), k -> Collections.newSetFromMap(new IdentityHashMap<>())).add(at);
        } else if (o == THIS || o == PARAM) {
          leaks.add(at);
        }
      }
    }

    /**
     * {@code v} is written into at {@code at} (an element store, a bulk call's write range). A fresh array's writes
     * need nothing here: the store that makes it a candidate's counts ({@link #storeInto}).
     */
    private void writtenInto(Val v, AbstractInsnNode at) {
      if (v == null) {
        return;
      }
      for (Object o : v.origins) {
        if (o instanceof Load l) {
          if (!l.own() || !initialiserOf(l.name())) {
            unstable.add(l.name());
          } else {
            writtenHere.add(l.name());
          }
        } else if (o instanceof Row r) {
          if (!r.own() || !initialiserOf(r.name())) {
            unstableRows.add(r.name());
          } else {
            writtenHere.add(r.name()); // a constructor's: unstable with the field if `this` leaves it
          }
        } else if (o == THIS) {
          leaks.add(at); // `this` is not an array: unreachable in verified code
        }
      }
    }

    /** Only bare {@code this} (not a candidate, not fresh) is a receiver that keeps a constructor's field store own. */
    private static boolean isThis(Val v) {
      return v != null && !v.other && v.origins.size() == 1 && v.origins.contains(THIS);
    }

    private Val other(BasicValue shape) {
      return shape == null ? null : new Val(shape.getSize(), Set.of(), true);
    }

    // ---- the interpreter ----

    @Override
    public Val newValue(Type type) {
      if (type == Type.VOID_TYPE) {
        return null;
      }
      return new Val(type == null ? 1 : type.getSize(), Set.of(), true);
    }

    @Override
    public Val newParameterValue(boolean isInstanceMethod, int local, Type type) {
      if (ctor && isInstanceMethod && local == 0) {
        return new Val(1, Set.of(THIS), false);
      }
      if (holder && taintedLocals.contains(local)) {
        return new Val(1, Set.of(PARAM), false); // the caller's `this`
      }
      return newValue(type);
    }

    @Override
    public Val newOperation(AbstractInsnNode insn) throws AnalyzerException {
      int op = insn.getOpcode();
      if (op == Opcodes.ACONST_NULL) {
        return new Val(1, Set.of(), false);
      }
      if (op == Opcodes.NEW && ctor && !holder) {
        return new Val(1, Set.of(new NewObject(insn)), false);
      }
      if (op == Opcodes.GETSTATIC) {
        FieldInsnNode f = (FieldInsnNode) insn;
        if (f.owner.equals(self) && candidates.contains(f.name)) {
          if (!statics.get(f.name)) {
            unstable.add(f.name); // not verifiable: keep it checked
          }
          return new Val(1, Set.of(new Load(f.name, clinit)), false);
        }
      }
      return other(sizes.newOperation(insn));
    }

    @Override
    public Val copyOperation(AbstractInsnNode insn, Val value) {
      return value;
    }

    @Override
    public Val unaryOperation(AbstractInsnNode insn, Val value) throws AnalyzerException {
      int op = insn.getOpcode();
      switch (op) {
        case Opcodes.NEWARRAY, Opcodes.ANEWARRAY -> {
          if (tracksFresh()) {
            return new Val(1, Set.of(insn), false);
          }
          return other(sizes.unaryOperation(insn, BasicValue.INT_VALUE));
        }
        case Opcodes.CHECKCAST -> {
          return value;
        }
        case Opcodes.IFNULL, Opcodes.IFNONNULL, Opcodes.MONITORENTER, Opcodes.MONITOREXIT -> {
          return null;
        }
        case Opcodes.ARRAYLENGTH, Opcodes.INSTANCEOF -> {
          return other(sizes.unaryOperation(insn, BasicValue.REFERENCE_VALUE));
        }
        case Opcodes.GETFIELD -> {
          FieldInsnNode f = (FieldInsnNode) insn;
          if (f.owner.equals(self) && candidates.contains(f.name)) {
            if (statics.get(f.name)) {
              unstable.add(f.name);
            }
            return new Val(1, Set.of(new Load(f.name, ctor && isThis(value))), false);
          }
          if (ctor && isThis(value)) {
            loadsOf.computeIfAbsent(f.name, k -> Collections.newSetFromMap(new IdentityHashMap<>())).add(insn);
          }
          return other(sizes.unaryOperation(insn, BasicValue.REFERENCE_VALUE));
        }
        case Opcodes.PUTSTATIC -> {
          FieldInsnNode f = (FieldInsnNode) insn;
          if (f.owner.equals(self) && candidates.contains(f.name)) {
            storeInto(f.name, value, clinit && statics.get(f.name), insn);
            return null;
          }
          escape(value, insn);
          return null;
        }
        default -> {
          if (value != null && op == Opcodes.ATHROW) {
            escape(value, insn); // whatever it is leaves the frame (areturn: see returnOperation)
          }
          BasicValue shape = sizes.unaryOperation(insn, value == null ? null
              : value.size == 2 ? BasicValue.LONG_VALUE : BasicValue.REFERENCE_VALUE);
          return other(shape);
        }
      }
    }

    /** A store of {@code value} into candidate {@code field}: kept only in its initialiser, on {@code this}. */
    private void storeInto(String field, Val value, boolean own, AbstractInsnNode at) {
      if (!own || value == null || value.other || value.origins.isEmpty()) {
        unstable.add(field);
        escape(value, at);
        return;
      }
      for (Object o : value.origins) {
        if (o instanceof AbstractInsnNode n) {
          storedFresh.computeIfAbsent(field, k -> Collections.newSetFromMap(new IdentityHashMap<>())).add(n);
        } else {
          unstable.add(field); // another field's array, `this`: not a fresh array of its own
          escape(value, at);
          return;
        }
      }
      writtenHere.add(field);
    }

    @Override
    public Val binaryOperation(AbstractInsnNode insn, Val value1, Val value2) throws AnalyzerException {
      int op = insn.getOpcode();
      if (op == Opcodes.PUTFIELD) {
        FieldInsnNode f = (FieldInsnNode) insn;
        if (f.owner.equals(self) && candidates.contains(f.name)) {
          storeInto(f.name, value2, ctor && !statics.get(f.name) && isThis(value1), insn);
        } else if (ctor && isThis(value1) && value2 != null && !value2.other && keptByThis(value2)) {
          // `this`, a holder or a parameter kept in a field of `this`: out only if that field is loaded here again
          heldIn.computeIfAbsent(f.name, k -> new HashSet<>()).addAll(value2.origins);
        } else {
          escape(value2, insn); // stored into another field: whatever it is, it is out
        }
        if (value1 != null && !isThis(value1)) {
          escape(value1, insn); // a field of a candidate or fresh array: impossible in verified code
        }
        return null;
      }
      if (op == Opcodes.AALOAD) {
        return rowOf(value1);
      }
      if (ConfinedArrays.isArrayLoad(op) || op == Opcodes.IF_ACMPEQ || op == Opcodes.IF_ACMPNE) {
        return other(sizes.binaryOperation(insn, BasicValue.REFERENCE_VALUE, BasicValue.INT_VALUE));
      }
      return other(sizes.binaryOperation(insn, widen(value1), widen(value2)));
    }

    /** Only {@code this}, the holder's arguments or objects this constructor allocated. */
    private static boolean keptByThis(Val v) {
      for (Object o : v.origins) {
        if (!(o == THIS || o == PARAM || o instanceof NewObject)) {
          return false;
        }
      }
      return true;
    }

    private static BasicValue widen(Val v) {
      return v == null ? null : v.size == 2 ? BasicValue.LONG_VALUE : BasicValue.INT_VALUE;
    }

    /**
     * What an {@code aaload} takes out of {@code array}: a row of a candidate's array or row ({@link Row}), of a fresh
     * array or row ({@link FreshRow}); anything else is other.
     */
    private Val rowOf(Val array) {
      if (array == null) {
        return other(BasicValue.REFERENCE_VALUE);
      }
      Set<Object> origins = new HashSet<>();
      boolean other = array.other;
      for (Object o : array.origins) {
        if (o instanceof Load l) {
          origins.add(new Row(l.name(), l.own()));
        } else if (o instanceof Row || o instanceof FreshRow) {
          origins.add(o); // a row of a row is a row of the same field or fresh array
        } else if (o instanceof AbstractInsnNode n) {
          origins.add(new FreshRow(n));
        } else {
          other = true; // `this`, an object: not an array in verified code
        }
      }
      return origins.isEmpty() ? other(BasicValue.REFERENCE_VALUE) : new Val(1, origins, other);
    }

    @Override
    public Val ternaryOperation(AbstractInsnNode insn, Val value1, Val value2, Val value3) {
      writtenInto(value1, insn); // an element store: into value1
      if (insn.getOpcode() == Opcodes.AASTORE) {
        storeElement(value1, value3, insn);
      } else {
        escape(value3, insn); // a primitive: nothing
      }
      return null;
    }

    /**
     * An {@code aastore} of {@code value} into {@code array}. Fresh arrays of this initialiser stored into its own
     * fresh arrays or rows, or into a candidate's array or rows in the candidate's initialiser (on the right receiver),
     * become elements of those ({@link #elementsOf}; for the top level they escape, as any array stored in an array);
     * anything else escapes, and the arrays it is stored into hold an element of unknown origin: their rows are out.
     * A null is nothing.
     */
    private void storeElement(Val array, Val value, AbstractInsnNode at) {
      if (value != null && !value.other && value.origins.isEmpty()) {
        return;
      }
      List<Object> holders = holdersOf(array);
      boolean fresh = holders != null && value != null && !value.other;
      if (fresh) {
        for (Object o : value.origins) {
          fresh &= o instanceof AbstractInsnNode;
        }
      }
      if (!fresh) {
        escape(value, at);
        letRowsOut(array, true);
        return;
      }
      for (Object o : value.origins) {
        AbstractInsnNode n = (AbstractInsnNode) o;
        freshEscaped.add(n); // not a field's own table any more: an element of another array
        for (Object h : holders) {
          elementsOf.computeIfAbsent(h, k -> Collections.newSetFromMap(new IdentityHashMap<>())).add(n);
        }
      }
    }

    /**
     * What an element store into {@code array} stores into, if it can be followed: candidates (into their arrays or
     * rows, in their own initialiser) and fresh arrays (into them or their rows); null if it may be anything else.
     */
    private List<Object> holdersOf(Val array) {
      if (array == null || array.other || array.origins.isEmpty()) {
        return null;
      }
      List<Object> holders = new ArrayList<>();
      for (Object o : array.origins) {
        if (o instanceof Load l && l.own() && initialiserOf(l.name())) {
          holders.add(l.name());
        } else if (o instanceof Row r && r.own() && initialiserOf(r.name())) {
          holders.add(r.name());
        } else if (o instanceof AbstractInsnNode n) {
          holders.add(n);
        } else if (o instanceof FreshRow r) {
          holders.add(r.parent());
        } else {
          return null;
        }
      }
      return holders;
    }

    /**
     * The rows of {@code v} (of candidates' arrays or rows, of fresh ones) may reach other code or arrays, or be of any
     * origin: those fields' rows are unstable, those fresh arrays' rows out. With {@code always} false, only where
     * they may be references ({@link #holdsReferences}): an array of primitives (a two-dimensional table's row) has
     * none to let out.
     */
    private void letRowsOut(Val v, boolean always) {
      if (v == null) {
        return;
      }
      for (Object o : v.origins) {
        if (!always && !holdsReferences(o)) {
          continue;
        }
        if (o instanceof Load l) {
          unstableRows.add(l.name());
        } else if (o instanceof Row r) {
          unstableRows.add(r.name());
        } else if (o instanceof AbstractInsnNode n) {
          freshRowsOut.add(n);
        } else if (o instanceof FreshRow r) {
          freshRowsOut.add(r.parent());
        }
      }
    }

    @Override
    public Val naryOperation(AbstractInsnNode insn, List<? extends Val> values) throws AnalyzerException {
      int op = insn.getOpcode();
      if (op == Opcodes.MULTIANEWARRAY) {
        if (tracksFresh()) {
          return new Val(1, Set.of(insn), false);
        }
        return other(BasicValue.REFERENCE_VALUE);
      }
      MethodInsnNode call = insn instanceof MethodInsnNode m ? m : null;
      boolean readsOnly = call != null && ConfinedArrays.readsOnly(call);
      BulkArrayCalls.Model bulk = call != null ? BulkArrayCalls.of(op, call.owner, call.name, call.desc) : null;
      // a JDK call that may hand what is in its arrays — rows — to other code (a comparator, an element's equals)
      // or copy them out; Arrays' hash codes and strings only read them
      boolean rowsOut = call != null && (bulk != null || readsOnly && COMPARES.contains(call.name))
          && !(call.owner.equals("java/util/Arrays") && KEEPS_ROWS_IN.contains(call.name));
      boolean superInit = call != null && op == Opcodes.INVOKESPECIAL && call.name.equals("<init>") && objectSuper
          && call.owner.equals("java/lang/Object") && !values.isEmpty() && isThis(values.get(0));
      Map<Integer, Boolean> ranged = new HashMap<>();
      if (bulk != null) {
        int shift = op == Opcodes.INVOKESPECIAL && call.name.equals("<init>") ? 1 : 0;
        for (BulkArrayCalls.Range r : bulk.ranges()) {
          ranged.merge(r.array() + shift, r.write(), Boolean::logicalOr);
        }
      }
      boolean arrayReceiver = call != null && op != Opcodes.INVOKESTATIC && call.owner.startsWith("[");
      AbstractInsnNode created = null; // `new X(…, this, …)`: X's constructor may only keep it in X's own fields
      if (ctor && !holder && call != null && op == Opcodes.INVOKESPECIAL && call.name.equals("<init>")
          && !values.isEmpty() && values.get(0) != null && values.get(0).origins.size() == 1
          && values.get(0).origins.iterator().next() instanceof NewObject n) {
        Set<Integer> tainted = new HashSet<>();
        Type[] args = Type.getArgumentTypes(call.desc);
        for (int i = 1, local = 1; i < values.size() && i - 1 < args.length; local += args[i - 1].getSize(), i++) {
          if (values.get(i) != null && values.get(i).origins.contains(THIS)) {
            tainted.add(local);
          }
        }
        if (!tainted.isEmpty() && holderKeeps(call.owner, call.desc, tainted)) {
          created = n.insn();
          holders.add(created);
        }
      }
      for (int i = 0; i < values.size(); i++) {
        Val v = values.get(i);
        if (superInit && i == 0) {
          continue; // Object's constructor keeps nothing
        }
        if (created != null) {
          if (i > 0 && v != null && !v.origins.contains(THIS)) {
            escape(v, insn);
          }
          continue; // the holder and `this` in it: followed from here (holdersLeaks)
        }
        Boolean write = ranged.get(i);
        if (write != null) {
          if (write) {
            writtenInto(v, insn);
          }
          if (rowsOut) {
            letRowsOut(v, false);
          }
          continue;
        }
        if (readsOnly || (i == 0 && arrayReceiver)) {
          if (v != null && v.origins.contains(THIS)) {
            leaks.add(insn);
          }
          if (rowsOut) {
            letRowsOut(v, true); // Objects.equals(x, row): x's equals gets the row
          }
          continue;
        }
        escape(v, insn);
      }
      if (op == Opcodes.INVOKEDYNAMIC) {
        return other(BasicValue.REFERENCE_VALUE);
      }
      if (tracksFresh() && freshCall(call, op)) {
        return new Val(1, Set.of(insn), false);
      }
      Type ret = Type.getReturnType(((MethodInsnNode) insn).desc);
      return ret == Type.VOID_TYPE ? null : other(sizes.newValue(ret));
    }

    @Override
    public void returnOperation(AbstractInsnNode insn, Val value, Val expected) {
      if (producer && value != null && !value.other && !value.origins.isEmpty()) {
        for (Object o : value.origins) {
          if (o instanceof AbstractInsnNode n) {
            returned.add(n);
          } else {
            returnsFresh = false; // a candidate's array
          }
        }
        return;
      }
      if (producer) {
        returnsFresh = false;
      }
      escape(value, insn);
    }

    @Override
    public Val merge(Val a, Val b) {
      if (a.equals(b) || (a.other || !b.other) && a.origins.containsAll(b.origins) && a.size == b.size) {
        return a;
      }
      Set<Object> origins = new HashSet<>(a.origins);
      origins.addAll(b.origins);
      return new Val(Math.min(a.size, b.size), origins, a.other || b.other);
    }
  }
}
