package dev.racetriage.contract;

import java.util.Set;

/**
 * The thread-safety contract of the JDK's non-thread-safe containers (issue 22, item 2), in one table that both
 * analyses read: the agent at call sites in bytecode ({@code agent.instrument.ContainerModel}, which shades this
 * class into its jar) and the static prefilter at call sites in source ({@code prefilter.lockset.ContainerCalls}).
 * A mutator call is a write and an accessor call a read of a pseudo-location of the receiver, keyed after the field
 * that holds the container ({@code pkg.Cls.cache{}}, as {@code slots[]} names an array's elements).
 *
 * <p>Which runtime classes are modelled ({@link #isModelledClass}: exactly the JDK's containers documented as not
 * synchronised, not their subclasses, which may lock, so a {@code ConcurrentHashMap}, a {@code Vector} or a
 * {@code Collections.synchronizedMap} wrapper reached through {@code Map} is not), which static types a call site may
 * name ({@link #OWNERS}), and which methods write ({@link #WRITES}) and read ({@link #READS}). {@code java.util.Random}
 * is thread-safe and not modelled; iterators are not modelled (a {@code next()} on an iterator is not tied to its
 * container), nor are views ({@code keySet()} is a read of the map, the view's own calls are not seen).
 *
 * <p>Names: runtime classes by binary name ({@code java.util.HashMap}), static types by internal name
 * ({@code java/util/Map}), as bytecode names them. No dependency but the JDK: the agent loads this class at run time.
 */
public final class ContainerContract {
  /** A call that changes the container. */
  public static final int WRITE = 1;
  /** A call that only looks. */
  public static final int READ = 0;
  /** Not a modelled call. */
  public static final int NONE = -1;

  /** The modelled runtime classes (binary names): the JDK's containers that document "not synchronized". */
  public static final Set<String> CLASSES = Set.of("java.util.HashMap", "java.util.LinkedHashMap",
      "java.util.TreeMap", "java.util.IdentityHashMap", "java.util.WeakHashMap", "java.util.EnumMap",
      "java.util.ArrayList", "java.util.LinkedList", "java.util.ArrayDeque", "java.util.PriorityQueue",
      "java.util.HashSet", "java.util.LinkedHashSet", "java.util.TreeSet", "java.util.RegularEnumSet",
      "java.util.JumboEnumSet", "java.lang.StringBuilder", "java.text.SimpleDateFormat", "java.text.DecimalFormat");

  /** Static types (internal names) whose calls may reach a modelled container. */
  public static final Set<String> OWNERS = Set.of("java/util/Map", "java/util/SortedMap", "java/util/NavigableMap",
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
  public static final Set<String> WRITES = Set.of("put", "putAll", "putIfAbsent", "remove", "removeIf", "removeAll",
      "retainAll", "clear", "add", "addAll", "addFirst", "addLast", "offer", "offerFirst", "offerLast", "push", "pop",
      "poll", "pollFirst", "pollLast", "removeFirst", "removeLast", "removeFirstOccurrence",
      "removeLastOccurrence", "set", "sort", "replace", "replaceAll", "compute", "computeIfAbsent",
      "computeIfPresent", "merge", "pollFirstEntry", "pollLastEntry", "trimToSize", "ensureCapacity", "append",
      "insert", "delete", "deleteCharAt", "setLength", "setCharAt", "reverse", "appendCodePoint", "format",
      "parse", "parseObject", "setTimeZone", "setLenient", "setCalendar", "applyPattern", "applyLocalizedPattern",
      "set2DigitYearStart", "setNumberFormat", "setDateFormatSymbols", "setDecimalFormatSymbols",
      "setMaximumFractionDigits", "setMinimumFractionDigits", "setRoundingMode", "setGroupingUsed");

  /** Calls that only look. */
  public static final Set<String> READS = Set.of("get", "getOrDefault", "containsKey", "containsValue", "contains",
      "containsAll", "size", "isEmpty", "iterator", "listIterator", "spliterator", "stream", "parallelStream",
      "forEach", "keySet", "values", "entrySet", "toArray", "indexOf", "lastIndexOf", "subList", "peek",
      "peekFirst", "peekLast", "element", "getFirst", "getLast", "first", "last", "firstKey", "lastKey",
      "firstEntry", "lastEntry", "floorKey", "ceilingKey", "lowerKey", "higherKey", "floorEntry", "ceilingEntry",
      "lowerEntry", "higherEntry", "headMap", "tailMap", "subMap", "headSet", "tailSet", "subSet", "floor",
      "ceiling", "lower", "higher", "descendingMap", "descendingSet", "descendingIterator", "navigableKeySet",
      "equals", "hashCode", "toString", "charAt", "length", "substring", "subSequence", "codePointAt", "chars",
      "getChars", "capacity", "toPattern", "clone", "comparator", "getTimeZone", "isLenient", "getCalendar");

  /** {@code java.util.Collections}' algorithms that rearrange the list they are given (their first argument). */
  public static final Set<String> COLLECTIONS_WRITES = Set.of("sort", "shuffle", "reverse", "swap", "fill",
      "rotate", "copy", "addAll", "replaceAll");

  /** Static methods of these types read the containers they are given ({@code List.copyOf}, {@code String.join}). */
  private static final Set<String> STATIC_READERS = Set.of("java/util/Collections", "java/util/List",
      "java/util/Set", "java/util/Map", "java/lang/String");

  private ContainerContract() {
  }

  /** Whether instances of this runtime class (binary name) are modelled; not its subclasses, which may lock. */
  public static boolean isModelledClass(String binaryName) {
    return CLASSES.contains(binaryName);
  }

  /** Whether a value of this static type (internal name) may be a modelled container. */
  public static boolean mayHold(String internalName) {
    return OWNERS.contains(internalName);
  }

  /** {@link #WRITE}, {@link #READ} or {@link #NONE} for an instance call on {@code owner} (internal name). */
  public static int access(String owner, String name) {
    if (!OWNERS.contains(owner)) {
      return NONE;
    }
    if (WRITES.contains(name)) {
      return WRITE;
    }
    return READS.contains(name) ? READ : NONE;
  }

  /**
   * The access a call makes to a container passed as its argument {@code index} (0-based, not counting the
   * receiver) whose parameter type is {@code parameterType} (internal name): read when the call copies or compares
   * it — a modelled instance call ({@code addAll(c)}, {@code putAll(m)}, {@code equals(c)}), a modelled class's
   * constructor ({@code new ArrayList<>(c)}), a static of {@code Collections}, {@code List}, {@code Set}, {@code Map}
   * or {@code String} ({@code List.copyOf(c)}, {@code String.join(", ", c)}) — written when {@code Collections.sort}
   * and its kin rearrange it; else {@link #NONE}.
   *
   * @param kind how the call is made: {@code 'i'} an instance call, {@code 'c'} a constructor, {@code 's'} a static
   */
  public static int argumentAccess(char kind, String owner, String name, int index, String parameterType) {
    boolean readsArguments = switch (kind) {
      case 'i' -> access(owner, name) != NONE;
      case 'c' -> OWNERS.contains(owner) && CLASSES.contains(owner.replace('/', '.'));
      default -> STATIC_READERS.contains(owner);
    };
    if (!readsArguments || !OWNERS.contains(parameterType)) {
      return NONE;
    }
    return owner.equals("java/util/Collections") && COLLECTIONS_WRITES.contains(name) && index == 0 ? WRITE : READ;
  }
}
