package dev.racetriage.agent.instrument;

import dev.racetriage.contract.ContainerContract;
import java.util.Set;
import org.objectweb.asm.Opcodes;

/**
 * The thread-safety contract of the JDK's non-thread-safe containers, modelled at their call sites in application
 * code (issue 22, item 2; detect mode unless the agent's {@code containers=false}; trials of a container key
 * perturb the schedule at the same calls, {@code runtime.ContainerTrials}): a mutator call is a write and an accessor call a read of a pseudo-location of the
 * receiver, keyed after the field that holds the container ({@code pkg.Cls.cache{}}, as {@code slots[]} names an
 * array's elements). The table itself — which receiver classes are modelled, which static types a call site may
 * name, which methods write and read — is {@link ContainerContract} (module {@code contract}), shared with the static
 * prefilter; this class applies it to bytecode (descriptors, spilled values, the runtime class check).
 * {@code java.util.Random} is thread-safe and not modelled; iterators are not modelled (a {@code next()} on an
 * iterator is not tied to its container here), nor are views ({@code keySet()} is a read of the map, the view's own
 * calls are not seen).
 */
public final class ContainerModel {
  /** Set at start-up from the agent's {@code containers} option (detect mode; default on). */
  private static boolean enabled;

  /** The modelled runtime classes (binary names): the shared table's. */
  private static final Set<String> CLASSES = ContainerContract.CLASSES;

  /** Static types (internal names) whose calls may reach a modelled container. */
  static final Set<String> OWNERS = ContainerContract.OWNERS;

  /** Calls that change the container (for the formats: their calendar or number state, which format/parse use). */
  static final Set<String> WRITES = ContainerContract.WRITES;

  /** Calls that only look. */
  static final Set<String> READS = ContainerContract.READS;

  /** The access a call makes: {@code 1} a write, {@code 0} a read. */
  static final int WRITE = ContainerContract.WRITE;
  static final int READ = ContainerContract.READ;
  /** Not a modelled call. */
  static final int NONE = ContainerContract.NONE;

  private ContainerModel() {
  }

  /**
   * Whether container calls are checked in this JVM (detect mode, the agent's {@code containers} option, on by
   * default; part of the class cache's identity).
   */
  public static boolean enabled() {
    return enabled;
  }

  /** Set by the agent's start-up from its options, and by tests that instrument in their own JVM. */
  public static void enable(boolean on) {
    enabled = on;
  }

  /** {@link #WRITE}, {@link #READ} or {@link #NONE} for an instance call on {@code owner}. */
  static int access(String owner, String name) {
    return ContainerContract.access(owner, name);
  }

  /**
   * The access each spilled value of a call makes to a container (positions as {@link SpilledCall} numbers them:
   * the receiver of an instance call first), or null when the call is not modelled: the receiver of a mutator or
   * accessor ({@link #access}); a container argument that the call copies or compares — {@code new ArrayList<>(c)},
   * {@code addAll(c)}, {@code putAll(m)}, {@code equals(c)}, {@code List.copyOf(c)}, {@code String.join(", ", c)} —
   * is read; {@code Collections.sort(list)} and its kin write theirs.
   */
  static int[] accesses(int opcode, String owner, String name, String descriptor) {
    // Opcodes' constants are compiled in: the runtime, which loads this class too, needs no ASM
    return accesses(opcode == Opcodes.INVOKEVIRTUAL || opcode == Opcodes.INVOKEINTERFACE,
        opcode == Opcodes.INVOKESPECIAL && name.equals("<init>"), owner, name, descriptor);
  }

  /** {@link #accesses(int, String, String, String)} of an instance call, a constructor or a static call. */
  static int[] accesses(boolean instance, boolean constructor, String owner, String name, String descriptor) {
    String[] args = argumentTypes(descriptor);
    int offset = instance ? 1 : 0;
    int[] result = new int[args.length + offset];
    java.util.Arrays.fill(result, NONE);
    boolean any = false;
    if (instance) {
      result[0] = access(owner, name);
      any = result[0] != NONE;
    }
    char kind = instance ? 'i' : constructor ? 'c' : 's';
    for (int i = 0; i < args.length; i++) {
      if (args[i].startsWith("L")) {
        String type = args[i].substring(1, args[i].length() - 1);
        int access = ContainerContract.argumentAccess(kind, owner, name, i, type);
        if (access != NONE) {
          result[i + offset] = access;
          any = true;
        }
      }
    }
    return any ? result : null;
  }

  /** The argument type descriptors of a method descriptor (no ASM here: the runtime loads this class too). */
  private static String[] argumentTypes(String descriptor) {
    java.util.List<String> types = new java.util.ArrayList<>();
    int i = 1;
    while (descriptor.charAt(i) != ')') {
      int start = i;
      while (descriptor.charAt(i) == '[') {
        i++;
      }
      i = descriptor.charAt(i) == 'L' ? descriptor.indexOf(';', i) + 1 : i + 1;
      types.add(descriptor.substring(start, i));
    }
    return types.toArray(new String[0]);
  }

  /** Whether a field of this type may hold a modelled container (it names what it holds). */
  static boolean mayHold(String descriptor) {
    return descriptor.startsWith("L") && OWNERS.contains(descriptor.substring(1, descriptor.length() - 1));
  }

  /** Whether {@code internalName} (e.g. {@code java/util/HashMap}) is one of the modelled classes, exactly. */
  static boolean isModelledClass(String internalName) {
    return CLASSES.contains(internalName.replace('/', '.'));
  }

  /**
   * Bootstrap classes already answered, by identity hash: modelled ones and others. The hooks ask for every receiver
   * of a modelled call and every value of a container-typed field (a parser's element stack: millions of times), and
   * a name lookup costs a {@code getName} and a string hash each time. Racy but sound: a slot holds a whole class
   * reference or null, and a miss only looks the name up again. Only bootstrap classes are cached, so no class
   * loader is kept alive.
   */
  private static final Class<?>[] MODELLED = new Class<?>[64];
  private static final Class<?>[] NOT_MODELLED = new Class<?>[64];

  /** Whether instances of this runtime class are modelled (not its subclasses: they may synchronise). */
  public static boolean isModelled(Class<?> c) {
    int slot = System.identityHashCode(c) & (MODELLED.length - 1);
    if (MODELLED[slot] == c) {
      return true;
    }
    if (NOT_MODELLED[slot] == c || c.getClassLoader() != null) {
      return false;
    }
    boolean modelled = CLASSES.contains(c.getName());
    (modelled ? MODELLED : NOT_MODELLED)[slot] = c;
    return modelled;
  }
}
