package dev.racetriage.prefilter.rank;

import dev.racetriage.prefilter.Candidate;
import dev.racetriage.prefilter.facts.CallEdge;
import dev.racetriage.prefilter.facts.Access;
import dev.racetriage.prefilter.facts.FieldDecl;
import dev.racetriage.prefilter.facts.FileFacts;
import dev.racetriage.prefilter.facts.HeldLock;
import dev.racetriage.prefilter.facts.LockAlias;
import dev.racetriage.prefilter.facts.MethodFacts;
import dev.racetriage.prefilter.facts.PatternHit;
import dev.racetriage.prefilter.facts.RacePattern;
import dev.racetriage.prefilter.facts.TypeFacts;
import dev.racetriage.prefilter.parse.Classpath;
import dev.racetriage.prefilter.threads.ThreadContexts;
import dev.racetriage.prefilter.threads.ThreadContexts.Context;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Turns the facts of every file into ranked candidates. A field is a candidate when it is neither final nor volatile,
 * is written outside initialisation, and two of its accesses (one a write) can run on different threads at once with
 * no lock common to both — or when {@code @GuardedBy} names a lock some access does not hold.
 */
public final class CandidateRanker {

  private static final Set<String> IMMUTABLE_VALUE_TYPES = Set.of("boolean", "byte", "char", "short", "int", "long",
      "float", "double", "String", "java.lang.String", "Integer", "Long", "Boolean");

  private final Map<String, FieldDecl> fields = new LinkedHashMap<>();
  private final Map<String, TypeFacts> types = new HashMap<>();
  private final Map<String, List<Access>> accessesByField = new LinkedHashMap<>();
  private final Map<String, List<PatternHit>> patternsByField = new HashMap<>();
  private final Map<String, LockAlias> aliases = new HashMap<>();
  private final Map<String, Integer> syntaxErrors = new HashMap<>();
  private final Map<String, MethodFacts> methodsByKey = new HashMap<>();
  /** Project classes whose instances java.util.concurrent hands between threads, with a file that does it. */
  private final Map<String, String> handedOffTypes = new HashMap<>();
  /** Each file's position in the project: accesses are listed in file order, whichever file changed last. */
  private final Map<String, Integer> fileOrder = new HashMap<>();
  /** The first pass's verdicts by field key, kept so an update re-judges only the fields it touches. */
  private final Map<String, Candidate> judged = new java.util.TreeMap<>();
  private final ThreadContexts contexts;
  private final Classpath classpath;

  public CandidateRanker(Collection<FileFacts> files, Classpath classpath) {
    this.classpath = classpath;
    List<MethodFacts> methods = new ArrayList<>();
    List<CallEdge> calls = new ArrayList<>();
    List<dev.racetriage.prefilter.facts.TaskHandoff> handoffs = new ArrayList<>();
    for (FileFacts file : files) {
      fileOrder.put(file.file(), fileOrder.size());
      file.fields().forEach(f -> fields.put(f.key(), f));
      file.types().forEach(t -> types.put(t.binaryName(), t));
      file.accesses().forEach(a -> accessesByField.computeIfAbsent(a.fieldKey(), k -> new ArrayList<>()).add(a));
      file.patterns().forEach(p -> patternsByField.computeIfAbsent(p.fieldKey(), k -> new ArrayList<>()).add(p));
      file.lockAliases().forEach(a -> aliases.put(a.lockFieldKey(), a));
      methods.addAll(file.methods());
      handoffs.addAll(file.handoffs());
      file.handedOffTypes().forEach(t -> handedOffTypes.putIfAbsent(t, file.file()));
      calls.addAll(file.calls());
      if (file.syntaxErrors() > 0) {
        syntaxErrors.put(file.file(), file.syntaxErrors());
      }
    }
    addArrayElements();
    addContainerContents();
    methods = handedToThreads(methods, handoffs);
    methods.forEach(m -> methodsByKey.put(m.key(), m));
    contexts = ThreadContexts.compute(methods, calls,
        owner -> types.containsKey(owner) && types.get(owner).threadSafe());
  }

  /**
   * Incremental ranking, for an editor: replaces one file's facts and re-judges only the fields that file declares,
   * accesses or shows a pattern on (before or after the edit). Valid only while the edit leaves what decides the
   * threads of the whole project alone — the file's classes, bodies, calls, task hand-offs and lock aliases; when
   * it changes them (a new method, a moved lambda, a new thread start) this returns false and the caller ranks
   * from scratch with a new ranker. The result equals a full ranking of the same facts.
   *
   * @param before the file's facts the ranker holds
   * @param after the file's new facts (same file)
   * @return whether the update was applied; {@link #rank()} then gives the candidates
   */
  public boolean replace(FileFacts before, FileFacts after) {
    if (!before.file().equals(after.file()) || !fileOrder.containsKey(before.file())
        || !before.types().equals(after.types()) || !before.methods().equals(after.methods())
        || !before.calls().equals(after.calls()) || !before.handoffs().equals(after.handoffs())
        || !before.handedOffTypes().equals(after.handedOffTypes())
        || !before.lockAliases().equals(after.lockAliases())) {
      return false;
    }
    String file = after.file();
    Set<String> touched = new java.util.HashSet<>();
    for (FileFacts facts : List.of(before, after)) {
      facts.fields().forEach(f -> touched.add(f.key()));
      facts.accesses().forEach(a -> touched.add(a.fieldKey()));
      facts.patterns().forEach(p -> touched.add(p.fieldKey()));
    }
    Set<String> arrays = new java.util.HashSet<>();
    touched.forEach(key -> arrays.add(key.endsWith("[]") ? key : key + "[]"));
    Set<String> containers = new java.util.HashSet<>();
    touched.forEach(key -> containers.add(key.endsWith("{}") ? key : key + "{}"));
    touched.addAll(arrays);
    touched.addAll(containers);
    before.fields().forEach(f -> fields.remove(f.key(), f));
    after.fields().forEach(f -> fields.put(f.key(), f));
    Comparator<Access> inFileOrder = Comparator.comparingInt(a -> fileOrder.get(a.file()));
    replaceInFileOrder(accessesByField, before.accesses(), after.accesses(), Access::fieldKey, Access::file, file,
        inFileOrder);
    replaceInFileOrder(patternsByField, before.patterns(), after.patterns(), PatternHit::fieldKey, PatternHit::file,
        file, Comparator.comparingInt(p -> fileOrder.get(p.file())));
    if (after.syntaxErrors() > 0) {
      syntaxErrors.put(file, after.syntaxErrors());
    } else {
      syntaxErrors.remove(file);
    }
    arrays.forEach(fields::remove); // element entries are derived from the array's declaration: derive them anew
    containers.forEach(fields::remove); // so are container contents
    addArrayElements();
    addContainerContents();
    for (String key : touched) {
      judged.remove(key);
      FieldDecl field = fields.get(key);
      if (field != null) {
        judge(field).ifPresent(c -> judged.put(key, c));
      }
    }
    return true;
  }

  private static <T> void replaceInFileOrder(Map<String, List<T>> byField, List<T> before, List<T> after,
      java.util.function.Function<T, String> fieldOf, java.util.function.Function<T, String> fileOf, String file,
      Comparator<T> order) {
    Set<String> keys = new java.util.HashSet<>();
    before.forEach(item -> keys.add(fieldOf.apply(item)));
    for (String key : keys) {
      List<T> items = byField.get(key);
      items.removeIf(item -> fileOf.apply(item).equals(file));
      if (items.isEmpty()) {
        byField.remove(key);
      }
    }
    Set<String> added = new java.util.HashSet<>();
    for (T item : after) {
      byField.computeIfAbsent(fieldOf.apply(item), k -> new ArrayList<>()).add(item);
      added.add(fieldOf.apply(item));
    }
    added.forEach(key -> byField.get(key).sort(order)); // stable: keeps each file's own order
  }

  /** {@code pkg.Cls.slots[]}: the elements of an array field, judged like a field that is never final or volatile. */
  private void addArrayElements() {
    for (String key : accessesByField.keySet()) {
      FieldDecl array = key.endsWith("[]") ? fields.get(key.substring(0, key.length() - 2)) : null;
      if (array != null && !fields.containsKey(key)) {
        String elementType = array.typeName().endsWith("[]")
            ? array.typeName().substring(0, array.typeName().length() - 2) : array.typeName();
        fields.put(key, new FieldDecl(key, array.file(), array.line(), array.isStatic(), false, false, elementType,
            array.guardedBy(), array.threadConfined(), "", false));
      }
    }
  }

  /**
   * {@code pkg.Cls.cache{}}: the contents of a field holding one of the JDK's unsynchronised containers (the agent's
   * name for a container race), judged like a field that is never final or volatile — written by mutator calls, read
   * by accessor calls ({@code lockset.ContainerCalls}). Calls in a constructor or initialiser of the holder fill it
   * before publication, so a container only read after that is not a candidate.
   */
  private void addContainerContents() {
    for (String key : accessesByField.keySet()) {
      FieldDecl holder = key.endsWith("{}") ? fields.get(key.substring(0, key.length() - 2)) : null;
      if (holder != null && holder.unsynchronisedContainer() && !fields.containsKey(key)) {
        fields.put(key, new FieldDecl(key, holder.file(), holder.line(), holder.isStatic(), false, false,
            holder.typeName(), holder.guardedBy(), holder.threadConfined(), "", false));
      }
    }
  }

  /** Tasks passed to a project method that hands that parameter to a thread are thread entries themselves. */
  private static List<MethodFacts> handedToThreads(List<MethodFacts> methods,
      List<dev.racetriage.prefilter.facts.TaskHandoff> handoffs) {
    Map<String, MethodFacts.ThreadEntry> parameters = new HashMap<>();
    for (var handoff : handoffs) {
      if (handoff.isParameter()) {
        parameters.merge(handoff.method() + "@" + handoff.index(), handoff.entry(),
            (a, b) -> MethodFacts.ThreadEntry.MANY_THREADS); // handed to two threads
      }
    }
    if (parameters.isEmpty()) {
      return methods;
    }
    Map<String, MethodFacts.ThreadEntry> tasks = new HashMap<>();
    for (var handoff : handoffs) {
      MethodFacts.ThreadEntry entry = handoff.isParameter() ? null
          : parameters.get(handoff.method() + "@" + handoff.index());
      if (entry != null) {
        tasks.put(handoff.task(), entry);
      }
    }
    return methods.stream().map(m -> tasks.containsKey(m.key()) && m.entry() == MethodFacts.ThreadEntry.NONE
        ? new MethodFacts(m.key(), m.label(), m.owner(), m.kind(), m.isPrivate(), tasks.get(m.key()), m.joins())
        : m).toList();
  }

  /** The ranked candidates: every field judged (once per ranker), then unsafe publication through racy ones. */
  public List<Candidate> rank() {
    if (judged.isEmpty()) {
      for (FieldDecl field : fields.values()) {
        judge(field).ifPresent(c -> judged.put(c.field(), c));
      }
    }
    Map<String, Candidate> byField = new LinkedHashMap<>(judged);
    Map<String, List<FieldDecl>> fieldsByOwner = new HashMap<>();
    fields.values().forEach(f -> fieldsByOwner.computeIfAbsent(f.owner(), k -> new ArrayList<>()).add(f));
    for (Candidate racyReference : judged.values()) { // by field key: the same credit whichever file changed
      FieldDecl reference = fields.get(racyReference.field());
      for (FieldDecl field : fieldsByOwner.getOrDefault(reference.valueType(), List.of())) {
        if (!byField.containsKey(field.key())) {
          judgePublished(field, racyReference).ifPresent(c -> byField.put(c.field(), c));
        }
      }
    }
    List<Candidate> candidates = new ArrayList<>(byField.values());
    candidates.sort(Comparator.comparingDouble(Candidate::confidence).reversed().thenComparing(Candidate::field));
    return candidates;
  }

  private Optional<Candidate> judge(FieldDecl field) {
    if (field.isFinal() || field.isVolatile() || field.threadConfined()) {
      return Optional.empty();
    }
    TypeFacts owner = types.getOrDefault(field.owner(), new TypeFacts(field.owner(), false, false, false, false));
    if (owner.notThreadSafe() || owner.threadConfined()) {
      return Optional.empty();
    }
    List<Access> all = accessesByField.getOrDefault(field.key(), List.of()).stream()
        .map(this::resolveAliases).toList();
    List<Access> shared = all.stream().filter(a -> !a.initialisation()).toList();
    if (shared.stream().noneMatch(Access::isWrite)) {
      return Optional.empty(); // immutable after construction (or never written)
    }
    List<PatternHit> patterns = patternsByField.getOrDefault(field.key(), List.of());
    boolean ownerConcurrent = owner.threadSafe() || owner.synchronizes() || field.guardedBy().isPresent()
        || patterns.stream().anyMatch(p -> p.pattern() == RacePattern.DOUBLE_CHECKED_LOCKING
            || p.pattern() == RacePattern.BUSY_WAIT);
    Concurrency concurrency = new Concurrency(field, ownerConcurrent);

    List<Access[]> unprotected = new ArrayList<>();
    for (Access write : shared) {
      if (!write.isWrite()) {
        continue;
      }
      for (Access other : shared) {
        if ((other != write && other.isWrite() && other.offset() < write.offset() && other.file().equals(write.file()))
            || !concurrency.mayOverlap(write, other)) {
          continue; // each write/write pair once
        }
        if (!commonLock(write, other)) {
          unprotected.add(new Access[] {write, other});
        }
      }
    }
    List<Access> unguarded = field.guardedBy()
        .map(guard -> shared.stream().filter(a -> a.locks().stream().noneMatch(l -> l.id().equals(guard.id())))
            .toList())
        .orElse(List.of());
    if (field.guardedBy().isPresent() && unguarded.isEmpty()) {
      return Optional.empty(); // every access holds the lock the annotation names
    }
    if (unprotected.isEmpty() && unguarded.isEmpty()) {
      return Optional.empty();
    }

    Confidence confidence = new Confidence();
    explainAccesses(field, shared, unprotected, unguarded, confidence);
    if (field.key().endsWith("{}")) {
      confidence.add("the contents of " + article(field.typeName()) + field.typeName()
          + ", a JDK container that is not thread-safe: mutator calls write it, accessor calls read it", 0);
    }
    explainThreads(owner, unprotected, concurrency, confidence);
    explainPatterns(field, patterns, confidence);
    explainHandoffs(field, confidence);
    explainDegradation(all, confidence);
    List<PatternHit> distinctPatterns = patterns.stream().distinct()
        .sorted(Comparator.comparing(PatternHit::line)).toList();
    return Optional.of(new Candidate(field.key(), field.file(), field.line(), confidence.value(), distinctPatterns,
        confidence.reasons(), all));
  }

  /**
   * Unsafe publication: an object reached through a racy reference can be seen before its constructor's writes, so
   * the non-final fields it only writes in its constructor race with their reads (JUMBLE's Point: p is racy, so x and
   * y are too).
   */
  private Optional<Candidate> judgePublished(FieldDecl field, Candidate racyReference) {
    if (field.isFinal() || field.isVolatile() || field.isStatic() || field.threadConfined()) {
      return Optional.empty();
    }
    List<Access> all = accessesByField.getOrDefault(field.key(), List.of());
    boolean writtenInConstructorOnly = all.stream().anyMatch(a -> a.isWrite() && a.initialisation())
        && all.stream().noneMatch(a -> a.isWrite() && !a.initialisation());
    List<Access> reads = all.stream().filter(a -> !a.isWrite() && !a.initialisation()).toList();
    if (!writtenInConstructorOnly || reads.isEmpty()) {
      return Optional.empty();
    }
    Confidence confidence = new Confidence();
    confidence.add("published unsafely through the racy field " + racyReference.field()
        + ": another thread may see the object before its constructor's writes", 10);
    Access read = reads.stream().filter(a -> a.locks().isEmpty()).findFirst().orElse(reads.get(0));
    confidence.add("written only in the constructor; " + describe(read), 0);
    if (racyReference.patterns().stream().anyMatch(p -> p.pattern() == RacePattern.DOUBLE_CHECKED_LOCKING)) {
      confidence.add("the reference is double-checked without volatile", 10);
    }
    explainDegradation(all, confidence);
    return Optional.of(new Candidate(field.key(), field.file(), field.line(), confidence.value(), List.of(),
        confidence.reasons(), all));
  }

  /** Which pairs of accesses may run at the same time, judged from the threads their bodies run on. */
  private final class Concurrency {
    private final FieldDecl field;
    private final boolean ownerConcurrent;

    Concurrency(FieldDecl field, boolean ownerConcurrent) {
      this.field = field;
      this.ownerConcurrent = ownerConcurrent;
    }

    boolean mayOverlap(Access a, Access b) {
      for (Context x : contexts.of(a.method())) {
        for (Context y : contexts.of(b.method())) {
          if (!x.equals(y) || runsOnSeveralThreads(x)) {
            return true;
          }
        }
      }
      return false;
    }

    boolean runsOnSeveralThreads(Context context) {
      if (context.many()) {
        return true;
      }
      if (context.isEntry()) {
        return field.isStatic(); // static state is shared by every thread that runs this entry
      }
      // callers from outside: concurrent only when the class says so (annotation, its own locks, a racy idiom)
      return ownerConcurrent;
    }
  }

  /**
   * Fork/join: {@code a} comes before the creation of (or after the join of) every task that {@code b} can run in.
   */
  private boolean orderedByTasks(Access a, Access b) {
    if (a.taskOrder().isEmpty()) {
      return false;
    }
    Set<String> tasks = new java.util.HashSet<>();
    for (String token : a.taskOrder()) {
      if (token.startsWith("after-call:")) {
        String rest = token.substring("after-call:".length());
        int cut = rest.lastIndexOf(':');
        MethodFacts helper = methodsByKey.get(rest.substring(0, cut));
        if (helper != null && helper.joins()) {
          tasks.add(rest.substring(cut + 1));
        }
      } else {
        tasks.add(token.substring(token.indexOf(':') + 1));
      }
    }
    if (tasks.isEmpty()) {
      return false;
    }
    for (Context context : contexts.of(b.method())) {
      String id = context.id();
      String task = id.contains("->") ? id.substring(id.lastIndexOf("->") + 2) : id;
      if (!context.isEntry() || !tasks.contains(task)) {
        return false;
      }
    }
    return true;
  }

  /** A common lock, a volatile that orders the write before the read (message passing), or fork/join order. */
  private boolean commonLock(Access a, Access b) {
    if (orderedByTasks(a, b) || orderedByTasks(b, a)) {
      return true;
    }
    if (a.isWrite() != b.isWrite()) {
      for (String release : (a.isWrite() ? a : b).orderedBy()) {
        if ((a.isWrite() ? b : a).orderedBy().contains(release)) {
          return true;
        }
      }
    }
    for (HeldLock x : a.locks()) {
      for (HeldLock y : b.locks()) {
        if (x.excludes(y)) {
          return true;
        }
      }
    }
    return false;
  }

  private Access resolveAliases(Access access) {
    if (access.locks().stream().noneMatch(l -> aliases.containsKey(l.id()))) {
      return access;
    }
    List<HeldLock> locks = access.locks().stream().map(l -> {
      LockAlias alias = aliases.get(l.id());
      return alias == null ? l : l.withIdentity(alias.targetId(), alias.mode());
    }).toList();
    return access.withLocks(locks);
  }

  private void explainAccesses(FieldDecl field, List<Access> shared, List<Access[]> unprotected,
      List<Access> unguarded, Confidence confidence) {
    if (!unguarded.isEmpty()) {
      Access first = unguarded.get(0);
      confidence.add("@GuardedBy(\"" + field.guardedBy().get().display() + "\") but " + describe(first)
          + (unguarded.size() > 1 ? " (and " + (unguarded.size() - 1) + " more)" : ""), 25);
    }
    if (!unprotected.isEmpty()) {
      // the most telling pair: one side locked (the author forgot the other), else two different accesses
      Access[] pair = unprotected.stream()
          .filter(p -> p[0].locks().isEmpty() != p[1].locks().isEmpty()).findFirst()
          .or(() -> unprotected.stream().filter(p -> p[0] != p[1]).findFirst())
          .orElse(unprotected.get(0));
      String text = pair[0] == pair[1] ? describe(pair[0]) + ", on several threads at once"
          : describe(pair[0]) + "; " + describe(pair[1]);
      confidence.add(text, pair[0].locks().isEmpty() ? 10 : 5);
    }
    long locked = shared.stream().filter(a -> !a.locks().isEmpty()).count();
    if (locked > 0 && locked < shared.size()) {
      if (locked * 2 >= shared.size()) {
        // SpotBugs IS2_INCONSISTENT_SYNC: the author locks most accesses, so the unlocked ones are likely a mistake
        confidence.add("inconsistent synchronisation: " + locked + " of " + shared.size() + " accesses hold a lock",
            15);
      } else {
        // SpotBugs MANY_BIASED_UNLOCKED: mostly unlocked, perhaps never meant to be shared
        confidence.add("mostly unlocked: only " + locked + " of " + shared.size() + " accesses hold a lock", 5);
      }
      List<Access> unlocked = shared.stream().filter(a -> a.locks().isEmpty()).toList();
      if (unlocked.stream().allMatch(a -> !a.isWrite() && isGetter(a.methodLabel()))) {
        // SpotBugs ONLY_UNSYNC_IN_GETTERS: a stale read through a getter is often tolerated
        confidence.add("the only unlocked accesses are reads in getters", -10);
      }
    } else if (locked == 0) {
      confidence.add("no access holds a lock", 0);
    }
  }

  private void explainThreads(TypeFacts owner, List<Access[]> unprotected, Concurrency concurrency,
      Confidence confidence) {
    Set<Context> involved = new LinkedHashSet<>();
    for (Access[] pair : unprotected) {
      involved.addAll(contexts.of(pair[0].method()));
      involved.addAll(contexts.of(pair[1].method()));
    }
    List<Context> entries = involved.stream().filter(Context::isEntry).toList();
    if (!entries.isEmpty()) {
      String names = entries.stream().map(Context::label).distinct().limit(3).collect(Collectors.joining(", "));
      boolean many = entries.stream().anyMatch(Context::many);
      confidence.add("runs on thread entr" + (entries.size() > 1 ? "ies " : "y ") + names
          + (many ? " (on several threads at once)" : "") + (involved.contains(ThreadContexts.CALLERS)
              ? " and in its callers' thread" : ""), many ? 15 : 10);
    }
    if (owner.threadSafe()) {
      confidence.add(simpleName(owner.binaryName()) + " is @ThreadSafe: its methods run concurrently", 10);
    } else if (entries.isEmpty() && owner.synchronizes()) {
      confidence.add("no thread start seen; " + simpleName(owner.binaryName())
          + " uses locks elsewhere, so its callers are assumed concurrent", -5);
    }
    if (concurrency.field.isStatic() && !entries.isEmpty()) {
      confidence.add("static field: shared by every thread", 0);
    }
  }

  /**
   * An instance field of a class whose objects java.util.concurrent passes between threads (a queue's elements, a
   * future's value, an exchanger's, objects an executor task captures): each hand-off orders the sender's accesses
   * before the receiver's, so accesses the analysis sees on several threads are often to one object at a time. The
   * analysis does not follow objects, so the field stays a candidate, at lower confidence.
   */
  private void explainHandoffs(FieldDecl field, Confidence confidence) {
    String file = handedOffTypes.get(field.owner());
    if (file != null && !field.isStatic()) {
      confidence.add(simpleName(field.owner()) + " objects are handed between threads through java.util.concurrent"
          + " (in " + java.nio.file.Path.of(file).getFileName() + "), which orders each sender's accesses before"
          + " the receiver's", -35);
    }
  }

  private void explainPatterns(FieldDecl field, List<PatternHit> patterns, Confidence confidence) {
    Set<RacePattern> seen = new LinkedHashSet<>();
    patterns.forEach(p -> seen.add(p.pattern()));
    for (RacePattern pattern : seen) {
      switch (pattern) {
        case DOUBLE_CHECKED_LOCKING -> confidence.add("double-checked locking on a non-volatile field", 20);
        case BUSY_WAIT -> confidence.add("busy-wait loop on a plain field", 15);
        case LOSSY_COUNTER -> confidence.add("unlocked read-modify-write (f++): updates can be lost", 10);
        case CHECK_THEN_ACT -> confidence.add("tested then used without a local copy", 5);
        case RACY_LAZY_INIT -> {
          if (IMMUTABLE_VALUE_TYPES.contains(field.typeName())) {
            confidence.add("racy lazy initialisation of " + article(field.typeName()) + field.typeName()
                + ": often a benign cache (like String.hash) when recomputing gives the same value", -15);
          } else {
            confidence.add("racy lazy initialisation of " + article(field.typeName()) + field.typeName()
                + ": another thread may see it half-built", 10);
          }
        }
        default -> throw new IllegalStateException("unhandled pattern " + pattern);
      }
    }
  }

  private void explainDegradation(List<Access> all, Confidence confidence) {
    if (!classpath.status().isComplete()) {
      confidence.add("no classpath: bindings unresolved (" + classpath.detail() + ")", -15);
    }
    long byName = all.stream().filter(a -> !a.viaBinding()).count();
    if (byName > 0) {
      confidence.add(byName + " access" + (byName > 1 ? "es" : "") + " matched by name only (binding unresolved)",
          -10);
    }
    Set<String> brokenFiles = all.stream().map(Access::file).filter(syntaxErrors::containsKey)
        .collect(Collectors.toCollection(java.util.TreeSet::new));
    for (String file : brokenFiles) {
      confidence.add(Path.of(file).getFileName() + " has " + syntaxErrors.get(file)
          + " syntax error(s): analysed as far as JDT recovered", -10);
    }
  }

  private static String describe(Access access) {
    String verb = access.fieldKey().endsWith("{}") ? (access.isWrite() ? "changed by a call" : "read by a call")
        : access.isWrite() ? "written" : "read";
    String locks = access.locks().isEmpty() ? "without lock"
        : "under " + access.locks().stream().map(HeldLock::toString).collect(Collectors.joining(" and "));
    return verb + " in " + access.methodLabel() + " " + locks + " (line " + access.line() + ")";
  }

  private static boolean isGetter(String methodLabel) {
    return methodLabel.matches("(get|is)[A-Z]\\w*\\(\\)");
  }

  private static String article(String noun) {
    return "aeiouAEIOU".indexOf(noun.charAt(0)) >= 0 ? "an " : "a ";
  }

  private static String simpleName(String binaryName) {
    int cut = Math.max(binaryName.lastIndexOf('.'), binaryName.lastIndexOf('$'));
    return binaryName.substring(cut + 1);
  }
}
