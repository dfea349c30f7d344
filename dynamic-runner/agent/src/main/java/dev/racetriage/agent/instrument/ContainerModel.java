package dev.racetriage.agent.instrument;

import java.util.Set;

/**
 * The thread-safety contract of the JDK's non-thread-safe containers, modelled at their call sites in application
 * code (issue 22, item 2; detect mode unless the agent's {@code containers=false}; trials of a container key
 * perturb the schedule at the same calls, {@code runtime.ContainerTrials}): a mutator call is a write and an accessor call a read of a pseudo-location of the
 * receiver, keyed after the field that holds the container ({@code pkg.Cls.cache{}}, as {@code slots[]} names an
 * array's elements). This one file is the model: which receiver classes are modelled ({@link #isModelled}: the
 * exact classes, so a {@code ConcurrentHashMap} or a {@code Collections.synchronizedMap} wrapper reached through
 * {@code Map} is not), which static types a call site may name ({@link #OWNERS}), and which methods write and read.
 * {@code java.util.Random} is thread-safe and not modelled; iterators are not modelled (a {@code next()} on an
 * iterator is not tied to its container here), nor are views ({@code keySet()} is a read of the map, the view's own
 * calls are not seen).
 */
public final class ContainerModel {
  /** Set at start-up from the agent's {@code containers} option (detect mode; default on). */
  private static boolean enabled;

  /** The modelled runtime classes (binary names): the JDK's containers that document "not synchronized". */
  private static final Set<String> CLASSES = Set.of("java.util.HashMap", "java.util.LinkedHashMap",
      "java.util.TreeMap", "java.util.IdentityHashMap", "java.util.WeakHashMap", "java.util.EnumMap",
      "java.util.ArrayList", "java.util.LinkedList", "java.util.ArrayDeque", "java.util.PriorityQueue",
      "java.util.HashSet", "java.util.LinkedHashSet", "java.util.TreeSet", "java.util.RegularEnumSet",
      "java.util.JumboEnumSet", "java.lang.StringBuilder", "java.text.SimpleDateFormat", "java.text.DecimalFormat");

  /** Static types (internal names) whose calls may reach a modelled container. */
  static final Set<String> OWNERS = Set.of("java/util/Map", "java/util/SortedMap", "java/util/NavigableMap",
      "java/util/Collection", "java/util/List", "java/util/Set", "java/util/SortedSet", "java/util/NavigableSet",
      "java/util/Queue", "java/util/Deque", "java/lang/Iterable", "java/util/AbstractMap", "java/util/AbstractList",
      "java/util/AbstractCollection", "java/util/AbstractSet", "java/util/AbstractQueue",
      "java/util/AbstractSequentialList", "java/util/HashMap", "java/util/LinkedHashMap", "java/util/TreeMap",
      "java/util/IdentityHashMap", "java/util/WeakHashMap", "java/util/EnumMap", "java/util/ArrayList",
      "java/util/LinkedList", "java/util/ArrayDeque", "java/util/PriorityQueue", "java/util/HashSet",
      "java/util/LinkedHashSet", "java/util/TreeSet", "java/util/EnumSet", "java/lang/StringBuilder",
      "java/lang/AbstractStringBuilder", "java/lang/CharSequence", "java/lang/Appendable", "java/text/DateFormat",
      "java/text/SimpleDateFormat", "java/text/NumberFormat", "java/text/DecimalFormat", "java/text/Format");

  /** Calls that change the container (for the formats: their calendar or number state, which format/parse use). */
  static final Set<String> WRITES = Set.of("put", "putAll", "putIfAbsent", "remove", "removeIf", "removeAll",
      "retainAll", "clear", "add", "addAll", "addFirst", "addLast", "offer", "offerFirst", "offerLast", "push", "pop",
      "poll", "pollFirst", "pollLast", "removeFirst", "removeLast", "removeFirstOccurrence",
      "removeLastOccurrence", "set", "sort", "replace", "replaceAll", "compute", "computeIfAbsent",
      "computeIfPresent", "merge", "pollFirstEntry", "pollLastEntry", "trimToSize", "ensureCapacity", "append",
      "insert", "delete", "deleteCharAt", "setLength", "setCharAt", "reverse", "appendCodePoint", "format",
      "parse", "parseObject", "setTimeZone", "setLenient", "setCalendar", "applyPattern", "applyLocalizedPattern",
      "set2DigitYearStart", "setNumberFormat", "setDateFormatSymbols", "setDecimalFormatSymbols",
      "setMaximumFractionDigits", "setMinimumFractionDigits", "setRoundingMode", "setGroupingUsed");

  /** Calls that only look. */
  static final Set<String> READS = Set.of("get", "getOrDefault", "containsKey", "containsValue", "contains",
      "containsAll", "size", "isEmpty", "iterator", "listIterator", "spliterator", "stream", "parallelStream",
      "forEach", "keySet", "values", "entrySet", "toArray", "indexOf", "lastIndexOf", "subList", "peek",
      "peekFirst", "peekLast", "element", "getFirst", "getLast", "first", "last", "firstKey", "lastKey",
      "firstEntry", "lastEntry", "floorKey", "ceilingKey", "lowerKey", "higherKey", "floorEntry", "ceilingEntry",
      "lowerEntry", "higherEntry", "headMap", "tailMap", "subMap", "headSet", "tailSet", "subSet", "floor",
      "ceiling", "lower", "higher", "descendingMap", "descendingSet", "descendingIterator", "navigableKeySet",
      "equals", "hashCode", "toString", "charAt", "length", "substring", "subSequence", "codePointAt", "chars",
      "getChars", "capacity", "toPattern", "clone", "comparator", "getTimeZone", "isLenient", "getCalendar");

  /** The access a call makes: {@code 1} a write, {@code 0} a read. */
  static final int WRITE = 1;
  static final int READ = 0;
  /** Not a modelled call. */
  static final int NONE = -1;

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
    if (!OWNERS.contains(owner)) {
      return NONE;
    }
    if (WRITES.contains(name)) {
      return WRITE;
    }
    return READS.contains(name) ? READ : NONE;
  }

  /** {@code java.util.Collections}' algorithms that rearrange the list they are given. */
  private static final Set<String> COLLECTIONS_WRITES = Set.of("sort", "shuffle", "reverse", "swap", "fill",
      "rotate", "copy", "addAll", "replaceAll");

  /**
   * The access each spilled value of a call makes to a container (positions as {@link SpilledCall} numbers them:
   * the receiver of an instance call first), or null when the call is not modelled: the receiver of a mutator or
   * accessor ({@link #access}); a container argument that the call copies or compares — {@code new ArrayList<>(c)},
   * {@code addAll(c)}, {@code putAll(m)}, {@code equals(c)}, {@code List.copyOf(c)}, {@code String.join(", ", c)} —
   * is read; {@code Collections.sort(list)} and its kin write theirs.
   */
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
    boolean readsArguments = instance ? result[0] != NONE
        : constructor ? OWNERS.contains(owner) && CLASSES.contains(owner.replace('/', '.'))
        : owner.equals("java/util/Collections") || owner.equals("java/util/List") || owner.equals("java/util/Set")
            || owner.equals("java/util/Map") || owner.equals("java/lang/String");
    if (readsArguments) {
      boolean writes = owner.equals("java/util/Collections") && COLLECTIONS_WRITES.contains(name);
      for (int i = 0; i < args.length; i++) {
        if (args[i].startsWith("L") && OWNERS.contains(args[i].substring(1, args[i].length() - 1))) {
          result[i + offset] = writes && i == 0 ? WRITE : READ;
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

  /** Whether instances of this runtime class are modelled (not its subclasses: they may synchronise). */
  public static boolean isModelled(Class<?> c) {
    return c.getClassLoader() == null && CLASSES.contains(c.getName());
  }
}
