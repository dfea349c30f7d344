package dev.racetriage.prefilter.lockset;

import dev.racetriage.prefilter.annotations.ConcurrencyAnnotations;
import dev.racetriage.prefilter.facts.AccessKind;
import dev.racetriage.prefilter.facts.CallEdge;
import dev.racetriage.prefilter.facts.Access;
import dev.racetriage.prefilter.facts.FieldDecl;
import dev.racetriage.prefilter.facts.HeldLock;
import dev.racetriage.prefilter.facts.LockAlias;
import dev.racetriage.prefilter.facts.MethodFacts;
import dev.racetriage.prefilter.facts.MethodFacts.BodyKind;
import dev.racetriage.prefilter.facts.MethodFacts.ThreadEntry;
import dev.racetriage.prefilter.facts.TypeFacts;
import dev.racetriage.prefilter.lockset.LockExpressions.Action;
import dev.racetriage.prefilter.lockset.LockExpressions.LockCall;
import dev.racetriage.prefilter.parse.Expressions;
import dev.racetriage.prefilter.parse.FieldNames;
import dev.racetriage.prefilter.parse.FieldNames.ResolvedField;
import dev.racetriage.prefilter.parse.TypeNames;
import dev.racetriage.prefilter.threads.ThreadEntries;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.ASTVisitor;
import org.eclipse.jdt.core.dom.AbstractTypeDeclaration;
import org.eclipse.jdt.core.dom.AnonymousClassDeclaration;
import org.eclipse.jdt.core.dom.ArrayAccess;
import org.eclipse.jdt.core.dom.Assignment;
import org.eclipse.jdt.core.dom.Block;
import org.eclipse.jdt.core.dom.ClassInstanceCreation;
import org.eclipse.jdt.core.dom.CompilationUnit;
import org.eclipse.jdt.core.dom.Expression;
import org.eclipse.jdt.core.dom.ExpressionMethodReference;
import org.eclipse.jdt.core.dom.ExpressionStatement;
import org.eclipse.jdt.core.dom.FieldAccess;
import org.eclipse.jdt.core.dom.FieldDeclaration;
import org.eclipse.jdt.core.dom.IBinding;
import org.eclipse.jdt.core.dom.IMethodBinding;
import org.eclipse.jdt.core.dom.ITypeBinding;
import org.eclipse.jdt.core.dom.IfStatement;
import org.eclipse.jdt.core.dom.Initializer;
import org.eclipse.jdt.core.dom.LambdaExpression;
import org.eclipse.jdt.core.dom.MethodDeclaration;
import org.eclipse.jdt.core.dom.MethodInvocation;
import org.eclipse.jdt.core.dom.MethodReference;
import org.eclipse.jdt.core.dom.PostfixExpression;
import org.eclipse.jdt.core.dom.PrefixExpression;
import org.eclipse.jdt.core.dom.QualifiedName;
import org.eclipse.jdt.core.dom.SimpleName;
import org.eclipse.jdt.core.dom.Statement;
import org.eclipse.jdt.core.dom.SuperFieldAccess;
import org.eclipse.jdt.core.dom.SuperMethodInvocation;
import org.eclipse.jdt.core.dom.SynchronizedStatement;
import org.eclipse.jdt.core.dom.ThisExpression;
import org.eclipse.jdt.core.dom.TryStatement;
import org.eclipse.jdt.core.dom.TypeDeclaration;
import org.eclipse.jdt.core.dom.VariableDeclarationFragment;

/**
 * Walks one compilation unit keeping the set of locks held (the HeldLockAnalyzer of this project) and records every
 * access to a project field with those locks, the body of code it is in, the calls between bodies, and the bodies
 * that start on other threads.
 *
 * <p>Lock scopes: a synchronized method holds its monitor for its whole body; {@code synchronized (e)} holds
 * {@code e} for its block; {@code l.lock()} holds {@code l} for the rest of the enclosing block, until
 * {@code l.unlock()} or a {@code try} whose {@code finally} unlocks it; {@code if (l.tryLock())} holds {@code l} in
 * its then-branch; a method annotated {@code @GuardedBy("l")} is entered with {@code l} held. A lambda or anonymous
 * class handed to a thread starts with no lock: it runs later, elsewhere.
 */
public final class AccessCollector extends ASTVisitor {

  private record Body(String key, String label, String owner, BodyKind kind, boolean isStatic) {}

  /**
   * Where a body creates a task that may run on another thread: the task's body key, its source range, the loop
   * around it (accesses in the same loop are not ordered with it), and the project method it was handed to.
   */
  private record TaskSite(String body, String task, int start, int end, int loopStart, int loopEnd, String callee,
      int callEnd) {}

  private static final java.util.Set<String> JOINS = java.util.Set.of("join", "awaitTermination", "invokeAll",
      "await");

  private static final class TypeState {
    final String binaryName;
    final boolean threadSafe;
    final boolean notThreadSafe;
    final boolean threadConfined;
    boolean synchronizes;

    TypeState(String binaryName, List<?> modifiers) {
      this.binaryName = binaryName;
      this.threadSafe = ConcurrencyAnnotations.has(modifiers, ConcurrencyAnnotations.THREAD_SAFE);
      this.notThreadSafe = ConcurrencyAnnotations.has(modifiers, ConcurrencyAnnotations.NOT_THREAD_SAFE);
      this.threadConfined = ConcurrencyAnnotations.has(modifiers, ConcurrencyAnnotations.THREAD_CONFINED);
    }
  }

  private final String file;
  private final CompilationUnit unit;
  private final TypeNames types;
  private final FieldNames fields;
  private final LockExpressions lockExpressions;

  private final List<FieldDecl> fieldDecls = new ArrayList<>();
  /** What each field declared here is seen to hold: its declared type, initialiser and assignments in the file. */
  private final Map<String, ContainerCalls.Held> containersHeld = new HashMap<>();
  private final Map<String, TypeState> typeStates = new LinkedHashMap<>();
  private final Map<String, MethodFacts> methods = new LinkedHashMap<>();
  private final List<CallEdge> calls = new ArrayList<>();
  private final List<Access> accesses = new ArrayList<>();
  private final List<LockAlias> aliases = new ArrayList<>();
  /** Lambdas, method references and anonymous classes handed to a thread, and how they run there. */
  private final Map<ASTNode, ThreadEntry> handedToThreads = new HashMap<>();

  private final List<TaskSite> taskSites = new ArrayList<>();
  private final List<dev.racetriage.prefilter.facts.TaskHandoff> handoffs = new ArrayList<>();
  private final Map<String, List<Integer>> joinCalls = new HashMap<>();

  /** Project classes whose instances java.util.concurrent hands between threads (see JucHandoffs). */
  private final java.util.Set<String> handedOffTypes = new java.util.TreeSet<>();
  /** Writes of a project object into a field: body key, offset and the object's class (see publishedBeforeHandoffs). */
  private final List<String[]> objectWrites = new ArrayList<>();

  /** Accesses of volatile fields: they order the plain accesses around them (release after a write, acquire before a read). */
  private final List<Access> volatileAccesses = new ArrayList<>();

  private final Deque<Body> bodies = new ArrayDeque<>();
  private HeldLockSet held = HeldLockSet.EMPTY;

  public AccessCollector(String file, CompilationUnit unit, TypeNames types, FieldNames fields) {
    this.file = file;
    this.unit = unit;
    this.types = types;
    this.fields = fields;
    this.lockExpressions = new LockExpressions(fields, types);
  }

  public void collect() {
    unit.accept(this);
    publishedBeforeHandoffs();
    orderByVolatiles();
    orderByTasks();
    methods.replaceAll((key, m) -> joinCalls.containsKey(key)
        ? new MethodFacts(m.key(), m.label(), m.owner(), m.kind(), m.isPrivate(), m.entry(), true) : m);
  }

  /**
   * Fork and join: an access made before a task is created happens before the task runs; one made after a join-like
   * call that follows the task (or after the project method the task was handed to returns, if that method joins)
   * happens after it. Not within a loop around the task: the next iteration runs alongside the previous task.
   */
  private void orderByTasks() {
    if (taskSites.isEmpty()) {
      return;
    }
    for (int i = 0; i < accesses.size(); i++) {
      Access access = accesses.get(i);
      List<String> tokens = new ArrayList<>();
      int at = access.offset();
      for (TaskSite site : taskSites) {
        if (!site.body().equals(access.method()) || (at >= site.loopStart() && at < site.loopEnd())) {
          continue;
        }
        if (at < site.start()) {
          tokens.add("before:" + site.task());
        } else if (at >= site.end()) {
          boolean joined = joinCalls.getOrDefault(site.body(), List.of()).stream()
              .anyMatch(j -> j >= site.end() && j < at);
          if (joined) {
            tokens.add("after:" + site.task());
          } else if (site.callee() != null && at >= site.callEnd()) {
            tokens.add("after-call:" + site.callee() + ":" + site.task());
          }
        }
      }
      if (!tokens.isEmpty()) {
        accesses.set(i, access.withTaskOrder(tokens));
      }
    }
  }

  private void recordTaskSite(ASTNode task, String taskKey) {
    Body enclosing = bodies.peek();
    if (enclosing == null) {
      return;
    }
    int loopStart = -1;
    int loopEnd = -1;
    for (ASTNode n = task.getParent(); n != null; n = n.getParent()) {
      if (n instanceof org.eclipse.jdt.core.dom.BodyDeclaration || n instanceof LambdaExpression) {
        break;
      }
      if (n instanceof org.eclipse.jdt.core.dom.ForStatement || n instanceof org.eclipse.jdt.core.dom.WhileStatement
          || n instanceof org.eclipse.jdt.core.dom.DoStatement
          || n instanceof org.eclipse.jdt.core.dom.EnhancedForStatement) {
        loopStart = n.getStartPosition();
        loopEnd = n.getStartPosition() + n.getLength();
      }
    }
    String callee = null;
    int callEnd = -1;
    if (task.getLocationInParent() == MethodInvocation.ARGUMENTS_PROPERTY && passedToProjectMethod((Expression) task)) {
      MethodInvocation call = (MethodInvocation) task.getParent();
      callee = methodKey(call.resolveMethodBinding());
      callEnd = call.getStartPosition() + call.getLength();
    }
    taskSites.add(new TaskSite(enclosing.key(), taskKey, task.getStartPosition(),
        task.getStartPosition() + task.getLength(), loopStart, loopEnd, callee, callEnd));
  }

  private static boolean isJoin(MethodInvocation call) {
    String name = call.getName().getIdentifier();
    if (JOINS.contains(name)) {
      return true;
    }
    if ((name.equals("get") || name.equals("close")) && call.getExpression() != null) {
      ITypeBinding type = call.getExpression().resolveTypeBinding();
      return type != null && (type.getName().contains("Future") || type.getName().contains("Executor"));
    }
    return false;
  }

  /**
   * A plain write followed, in the same body, by a volatile write is released by it; a plain read preceded by a
   * volatile read of the same field is acquired by it. Such a write and read are ordered (message passing through a
   * volatile flag), although no lock is common to them.
   */
  private void orderByVolatiles() {
    if (volatileAccesses.isEmpty()) {
      return;
    }
    for (int i = 0; i < accesses.size(); i++) {
      Access access = accesses.get(i);
      List<String> ordering = volatileAccesses.stream()
          .filter(v -> v.method().equals(access.method()) && v.kind() == access.kind()
              && (access.isWrite() ? v.offset() > access.offset() : v.offset() < access.offset()))
          .map(Access::fieldKey).distinct().toList();
      if (!ordering.isEmpty()) {
        accesses.set(i, access.withOrderedBy(ordering));
      }
    }
  }

  public List<FieldDecl> fieldDecls() {
    return fieldDecls.stream().map(f -> containersHeld.get(f.key()) != ContainerCalls.Held.UNSYNCHRONISED ? f
        : new FieldDecl(f.key(), f.file(), f.line(), f.isStatic(), f.isFinal(), f.isVolatile(), f.typeName(),
            f.guardedBy(), f.threadConfined(), f.valueType(), true)).toList();
  }

  public List<TypeFacts> types() {
    return typeStates.values().stream()
        .map(t -> new TypeFacts(t.binaryName, t.threadSafe, t.notThreadSafe, t.threadConfined, t.synchronizes))
        .toList();
  }

  public List<MethodFacts> methods() {
    return List.copyOf(methods.values());
  }

  public List<CallEdge> calls() {
    return calls;
  }

  public List<Access> accesses() {
    return accesses;
  }

  public List<dev.racetriage.prefilter.facts.TaskHandoff> handoffs() {
    return handoffs;
  }

  public List<LockAlias> lockAliases() {
    return aliases;
  }

  // ---- classes and fields

  @Override
  public void preVisit(ASTNode node) {
    if (node instanceof AbstractTypeDeclaration type) {
      String name = types.nameOf(type);
      typeStates.put(name, new TypeState(name, type.modifiers()));
    } else if (node instanceof AnonymousClassDeclaration) {
      String name = types.nameOf(node);
      typeStates.put(name, new TypeState(name, List.of()));
    }
  }

  @Override
  public boolean visit(FieldDeclaration node) {
    String owner = types.enclosingTypeOf(node);
    boolean inInterface = node.getParent() instanceof TypeDeclaration type && type.isInterface();
    int modifiers = node.getModifiers();
    boolean isStatic = Modifier.isStatic(modifiers) || inInterface;
    for (Object o : node.fragments()) {
      VariableDeclarationFragment fragment = (VariableDeclarationFragment) o;
      String name = fragment.getName().getIdentifier();
      String key = owner + "." + name;
      String typeName = node.getType().toString() + "[]".repeat(fragment.getExtraDimensions());
      Optional<HeldLock> guard = ConcurrencyAnnotations.guardedBy(node.modifiers())
          .map(value -> LockExpressions.fromGuardedBy(value, owner, key, declaringClass(node)));
      fieldDecls.add(new FieldDecl(key, file, Expressions.lineOf(fragment), isStatic,
          Modifier.isFinal(modifiers) || inInterface, Modifier.isVolatile(modifiers), typeName, guard,
          ConcurrencyAnnotations.has(node.modifiers(), ConcurrencyAnnotations.THREAD_CONFINED),
          projectTypeOf(fragment), false));
      Expression initializer = fragment.getInitializer();
      org.eclipse.jdt.core.dom.IVariableBinding binding = fragment.resolveBinding();
      ContainerCalls.Held held = ContainerCalls.declared(binding == null ? null : binding.getType());
      containersHeld.put(key, initializer == null ? held : held.and(ContainerCalls.assigned(initializer)));
      if (initializer != null) {
        lockExpressions.aliasOf(key, initializer, owner).ifPresent(aliases::add);
        String bodyKey = owner + (isStatic ? "#<clinit>" : "#<init>");
        Body body = new Body(bodyKey, "initialiser of " + name, owner, BodyKind.INITIALISER, isStatic);
        runIn(body, HeldLockSet.EMPTY, ThreadEntry.NONE, true, () -> initializer.accept(this));
      }
    }
    return false;
  }

  /** The binary name of the field's type when the project declares it (JDT binding, else a type of this unit). */
  private String projectTypeOf(VariableDeclarationFragment fragment) {
    org.eclipse.jdt.core.dom.IVariableBinding binding = fragment.resolveBinding();
    if (binding != null && binding.getType() != null && !binding.getType().isRecovered()) {
      ITypeBinding type = binding.getType().getErasure();
      String name = type.isFromSource() && type.isClass() ? TypeNames.binaryName(type) : null;
      return name == null ? "" : name;
    }
    String written = ((FieldDeclaration) fragment.getParent()).getType().toString();
    return types.typeNamed(written).orElse("");
  }

  /** The resolved class a member is declared in, or null. */
  private static org.eclipse.jdt.core.dom.ITypeBinding declaringClass(ASTNode member) {
    ASTNode parent = member.getParent();
    if (parent instanceof AbstractTypeDeclaration type) {
      return type.resolveBinding();
    }
    return parent instanceof AnonymousClassDeclaration anonymous ? anonymous.resolveBinding() : null;
  }

  // ---- bodies of code

  @Override
  public boolean visit(MethodDeclaration node) {
    if (node.getBody() == null) {
      return false;
    }
    String owner = types.enclosingTypeOf(node);
    int modifiers = node.getModifiers();
    boolean isStatic = Modifier.isStatic(modifiers);
    String name = node.isConstructor() ? "<init>" : node.getName().getIdentifier();
    String key = owner + "#" + name + "/" + node.parameters().size();
    String label = node.getName().getIdentifier() + "()";
    ThreadEntry entry = ThreadEntry.NONE;
    if (ThreadEntries.isThreadBody(node)) {
      entry = handedToThreads.getOrDefault(node.getParent(), ThreadEntry.ONE_THREAD);
      if (node.getParent() instanceof AnonymousClassDeclaration anonymous
          && anonymous.getParent() instanceof ClassInstanceCreation creation) {
        recordTaskSite(creation, key);
      }
    }
    HeldLockSet start = HeldLockSet.EMPTY;
    if (Modifier.isSynchronized(modifiers)) {
      start = start.with(isStatic ? LockExpressions.classLock(owner) : LockExpressions.thisLock(owner));
      markSynchronizes(owner);
    }
    Optional<String> guard = ConcurrencyAnnotations.guardedBy(node.modifiers());
    if (guard.isPresent()) {
      start = start.with(LockExpressions.fromGuardedBy(guard.get(), owner, owner + "." + guard.get(),
          declaringClass(node)));
    }
    Body body = new Body(key, label, owner, node.isConstructor() ? BodyKind.CONSTRUCTOR : BodyKind.METHOD, isStatic);
    boolean isPrivate = Modifier.isPrivate(modifiers);
    runIn(body, start, entry, isPrivate, () -> node.getBody().accept(this));
    return false;
  }

  @Override
  public boolean visit(Initializer node) {
    String owner = types.enclosingTypeOf(node);
    boolean isStatic = Modifier.isStatic(node.getModifiers());
    Body body = new Body(owner + (isStatic ? "#<clinit>" : "#<init>"),
        isStatic ? "static initialiser" : "instance initialiser", owner, BodyKind.INITIALISER, isStatic);
    runIn(body, HeldLockSet.EMPTY, ThreadEntry.NONE, true, () -> node.getBody().accept(this));
    return false;
  }

  @Override
  public boolean visit(LambdaExpression node) {
    Body enclosing = bodies.peek();
    String owner = types.enclosingTypeOf(node);
    int line = Expressions.lineOf(node);
    String key = owner + "#lambda@" + line + ":" + unit.getColumnNumber(node.getStartPosition());
    ThreadEntry entry = handedToThreads.getOrDefault(node, ThreadEntry.NONE);
    if (entry == ThreadEntry.NONE && ThreadEntries.isStoredTask(node)) {
      entry = ThreadEntry.ONE_THREAD; // Runnable task = () -> ...; new Thread(task)
    }
    // a lambda not handed to a thread runs where its caller runs (forEach, computeIfAbsent), under the caller's locks
    HeldLockSet start = entry == ThreadEntry.NONE ? held : HeldLockSet.EMPTY;
    linkTask(node, node.resolveTypeBinding(), key, entry, enclosing);
    if (entry != ThreadEntry.NONE || passedToProjectMethod(node)) {
      recordTaskSite(node, key);
      recordTaskArgument(node, key);
    }
    Body body = new Body(key, "lambda at " + fileName() + ":" + line, owner, BodyKind.LAMBDA, false);
    runIn(body, start, entry, true, () -> node.getBody().accept(this));
    return false;
  }

  @Override
  public boolean visit(ExpressionMethodReference node) {
    recordReference(node, node.resolveMethodBinding(), node.getExpression() instanceof ThisExpression
        || node.getExpression() == null ? node.getName().getIdentifier() : null);
    return true;
  }

  @Override
  public boolean visit(org.eclipse.jdt.core.dom.SuperMethodReference node) {
    recordReference(node, node.resolveMethodBinding(), null);
    return true;
  }

  @Override
  public boolean visit(org.eclipse.jdt.core.dom.TypeMethodReference node) {
    recordReference(node, node.resolveMethodBinding(), null);
    return true;
  }

  /** {@code executor.submit(this::work)}: a synthetic body on the pool thread that calls {@code work()}. */
  private void recordReference(MethodReference node, IMethodBinding binding, String ownMethodName) {
    Body enclosing = bodies.peek();
    String owner = types.enclosingTypeOf(node);
    String callee = methodKey(binding);
    if (callee == null && ownMethodName != null) {
      callee = owner + "#" + ownMethodName + "/0";
    }
    if (callee == null || enclosing == null) {
      return;
    }
    ThreadEntry entry = handedToThreads.getOrDefault(node, ThreadEntry.NONE);
    if (entry == ThreadEntry.NONE && !passedToProjectMethod(node)) {
      calls.add(new CallEdge(enclosing.key(), callee));
      return;
    }
    int line = Expressions.lineOf(node);
    String key = owner + "#ref@" + line + ":" + unit.getColumnNumber(node.getStartPosition());
    methods.put(key, new MethodFacts(key, node + " at " + fileName() + ":" + line, owner, BodyKind.LAMBDA, true,
        entry, false));
    calls.add(new CallEdge(key, callee));
    linkTask(node, node.resolveTypeBinding(), key, entry, null);
    recordTaskSite(node, key);
    recordTaskArgument(node, key);
  }

  /**
   * Connects a lambda or method reference to the code that runs it: calls of its functional interface method reach
   * it (dispatch), and unless a project method receives it (and decides where it runs) it runs where it is written.
   */
  private void linkTask(Expression task, ITypeBinding functionalType, String key, ThreadEntry entry, Body enclosing) {
    IMethodBinding implemented = functionalType == null ? null : functionalType.getFunctionalInterfaceMethod();
    String interfaceMethod = calleeKey(implemented);
    if (interfaceMethod != null) {
      calls.add(new CallEdge(interfaceMethod, key, true));
    }
    if (entry == ThreadEntry.NONE && enclosing != null && !passedToProjectMethod(task)) {
      calls.add(new CallEdge(enclosing.key(), key));
    }
  }

  private static boolean passedToProjectMethod(Expression task) {
    IMethodBinding target = null;
    if (task.getLocationInParent() == MethodInvocation.ARGUMENTS_PROPERTY) {
      target = ((MethodInvocation) task.getParent()).resolveMethodBinding();
    } else if (task.getLocationInParent() == ClassInstanceCreation.ARGUMENTS_PROPERTY) {
      target = ((ClassInstanceCreation) task.getParent()).resolveConstructorBinding();
    }
    return target != null && target.getDeclaringClass() != null && target.getDeclaringClass().isFromSource();
  }

  private String fileName() {
    return java.nio.file.Path.of(file).getFileName().toString();
  }

  private void runIn(Body body, HeldLockSet start, ThreadEntry entry, boolean isPrivate, Runnable walk) {
    methods.putIfAbsent(body.key(), new MethodFacts(body.key(), body.label(), body.owner(), body.kind(), isPrivate,
        entry, false));
    HeldLockSet saved = held;
    held = start;
    bodies.push(body);
    try {
      walk.run();
    } finally {
      bodies.pop();
      held = saved;
    }
  }

  // ---- calls and tasks handed to threads

  @Override
  public boolean visit(MethodInvocation node) {
    markTasks(node.arguments(), ThreadEntries.forArgumentOf(node));
    Body body = bodies.peek();
    if (body != null) {
      if (isJoin(node)) {
        joinCalls.computeIfAbsent(body.key(), k -> new ArrayList<>()).add(node.getStartPosition());
      }
      if (lockExpressions.lockCall(node, body.owner()).isPresent()) {
        markSynchronizes(body.owner());
      }
      recordHandoff(node, body);
      String callee = calleeKey(node.resolveMethodBinding());
      if (callee == null && node.resolveMethodBinding() == null
          && (node.getExpression() == null || node.getExpression() instanceof ThisExpression)) {
        callee = types.enclosingTypeOf(node) + "#" + node.getName().getIdentifier() + "/" + node.arguments().size();
      }
      if (callee != null) {
        calls.add(new CallEdge(body.key(), callee));
      }
      implicitObjectProtocolCalls(node, body);
    }
    return true;
  }

  /** Methods library code calls on the objects it is given: hash maps and sets, sorting, string building. */
  private static final java.util.Set<String> OBJECT_PROTOCOL = java.util.Set.of("hashCode/0", "equals/1",
      "compareTo/1", "toString/0");

  /**
   * A call into library code (a JDK collection, {@code Objects.hash}, a sort) with a project object as receiver or
   * argument may run that object's {@code hashCode}, {@code equals}, {@code compareTo} or {@code toString} on this
   * body's thread — a lazily cached hash computed there runs on every thread that puts the object in a map. Modelled
   * as calls from this body to those methods of the object's class.
   */
  private void implicitObjectProtocolCalls(MethodInvocation node, Body body) {
    IMethodBinding method = node.resolveMethodBinding();
    if (method == null || method.getDeclaringClass() == null || method.getDeclaringClass().isFromSource()) {
      return;
    }
    List<Expression> objects = new ArrayList<>();
    if (node.getExpression() != null) {
      objects.add(node.getExpression());
    }
    for (Object argument : node.arguments()) {
      objects.add((Expression) argument);
    }
    for (Expression object : objects) {
      ITypeBinding type = object.resolveTypeBinding();
      if (type == null || !type.isFromSource() || !type.isClass()) {
        continue;
      }
      for (IMethodBinding declared : type.getErasure().getDeclaredMethods()) {
        String key = methodKey(declared);
        if (key != null && OBJECT_PROTOCOL.contains(declared.getName() + "/" + declared.getParameterTypes().length)
            && !Modifier.isStatic(declared.getModifiers())) {
          calls.add(new CallEdge(body.key(), key));
        }
      }
    }
  }

  /**
   * A java.util.concurrent hand-off releases what the body did before it, or acquires what was released on the same
   * object: recorded as a write or read of a pseudo volatile named after the object, so {@link #orderByVolatiles}
   * orders a plain write before {@code latch.countDown()} with a plain read after {@code latch.await()}. Also notes
   * the project classes whose instances the call hands over.
   */
  private void recordHandoff(MethodInvocation node, Body body) {
    handedOffTypes.addAll(JucHandoffs.handedOffTypes(node));
    if (!JucHandoffs.isJucCall(node)) {
      return;
    }
    String key = JucHandoffs.objectKey(node, body.owner());
    int line = Expressions.lineOf(node);
    if (JucHandoffs.releases(node)) {
      volatileAccesses.add(new Access(key, file, line, node.getStartPosition(), AccessKind.WRITE, false,
          held.locks(), false, body.key(), body.label(), true, List.of(), List.of()));
    }
    if (JucHandoffs.acquires(node)) {
      volatileAccesses.add(new Access(key, file, line, node.getStartPosition() + node.getLength(), AccessKind.READ,
          false, held.locks(), false, body.key(), body.label(), true, List.of(), List.of()));
    }
  }

  /**
   * An object stored into a field before a release hand-off of the same body ({@code latest = job;
   * latch.countDown();}) is published through it: its class is handed off, like a queue's elements.
   */
  private void publishedBeforeHandoffs() {
    for (Access release : volatileAccesses) {
      if (!release.isWrite() || !release.fieldKey().startsWith("juc:")) {
        continue;
      }
      for (String[] write : objectWrites) {
        if (write[0].equals(release.method()) && Integer.parseInt(write[1]) < release.offset()) {
          handedOffTypes.add(write[2]);
        }
      }
    }
  }

  public List<String> handedOffTypes() {
    return List.copyOf(handedOffTypes);
  }

  @Override
  public boolean visit(SuperMethodInvocation node) {
    Body body = bodies.peek();
    String callee = methodKey(node.resolveMethodBinding());
    if (body != null && callee != null) {
      calls.add(new CallEdge(body.key(), callee));
    }
    return true;
  }

  @Override
  public boolean visit(ClassInstanceCreation node) {
    markTasks(node.arguments(), ThreadEntries.forArgumentOf(node));
    return true;
  }

  private void markTasks(List<?> arguments, ThreadEntry entry) {
    if (entry == ThreadEntry.NONE) {
      return;
    }
    for (Object argument : arguments) {
      Expression e = Expressions.strip((Expression) argument);
      if (e instanceof LambdaExpression || e instanceof MethodReference) {
        handedToThreads.put(e, entry);
      } else if (e instanceof ClassInstanceCreation creation && creation.getAnonymousClassDeclaration() != null) {
        handedToThreads.put(creation.getAnonymousClassDeclaration(), entry);
      } else if (e instanceof SimpleName name) {
        recordTaskParameter(name, entry);
      }
    }
  }

  /** {@code new Thread(task)} where {@code task} is a parameter: the method hands that parameter to a thread. */
  private void recordTaskParameter(SimpleName name, ThreadEntry entry) {
    if (!(name.resolveBinding() instanceof org.eclipse.jdt.core.dom.IVariableBinding variable)
        || !variable.isParameter()) {
      return;
    }
    for (ASTNode n = name.getParent(); n != null; n = n.getParent()) {
      if (n instanceof MethodDeclaration method) {
        for (int i = 0; i < method.parameters().size(); i++) {
          org.eclipse.jdt.core.dom.SingleVariableDeclaration parameter =
              (org.eclipse.jdt.core.dom.SingleVariableDeclaration) method.parameters().get(i);
          if (parameter.getName().getIdentifier().equals(name.getIdentifier())) {
            String key = types.enclosingTypeOf(method) + "#"
                + (method.isConstructor() ? "<init>" : method.getName().getIdentifier()) + "/"
                + method.parameters().size();
            handoffs.add(dev.racetriage.prefilter.facts.TaskHandoff.parameter(key, i, entry));
          }
        }
        return;
      }
    }
  }

  /** A lambda or method reference passed to a project method, which may hand it to a thread. */
  private void recordTaskArgument(Expression task, String taskKey) {
    if (task.getLocationInParent() == MethodInvocation.ARGUMENTS_PROPERTY) {
      MethodInvocation call = (MethodInvocation) task.getParent();
      String callee = methodKey(call.resolveMethodBinding());
      if (callee != null) {
        handoffs.add(dev.racetriage.prefilter.facts.TaskHandoff.argument(callee, call.arguments().indexOf(task),
            taskKey));
      }
    }
  }

  /**
   * The key of a called method: a project method, or a library interface method (a call of {@code Runnable.run()}
   * reaches the lambdas that implement it).
   */
  private static String calleeKey(IMethodBinding binding) {
    String key = methodKey(binding);
    if (key != null || binding == null) {
      return key;
    }
    IMethodBinding declaration = binding.getMethodDeclaration();
    ITypeBinding declaringClass = declaration.getDeclaringClass();
    if (declaringClass == null || !declaringClass.isInterface()) {
      return null;
    }
    return declaringClass.getErasure().getBinaryName() + "#" + declaration.getName() + "/"
        + declaration.getParameterTypes().length;
  }

  private static String methodKey(IMethodBinding binding) {
    if (binding == null) {
      return null;
    }
    IMethodBinding declaration = binding.getMethodDeclaration();
    ITypeBinding declaringClass = declaration.getDeclaringClass();
    if (declaringClass == null || !declaringClass.isFromSource()) {
      return null;
    }
    String owner = TypeNames.binaryName(declaringClass);
    if (owner == null) {
      return null;
    }
    String name = declaration.isConstructor() ? "<init>" : declaration.getName();
    return owner + "#" + name + "/" + declaration.getParameterTypes().length;
  }

  // ---- lock scopes

  @Override
  public boolean visit(SynchronizedStatement node) {
    Body body = bodies.peek();
    node.getExpression().accept(this);
    String owner = body == null ? types.enclosingTypeOf(node) : body.owner();
    markSynchronizes(owner);
    HeldLockSet saved = held;
    held = held.with(lockExpressions.monitorOf(node.getExpression(), types.enclosingTypeOf(node)));
    node.getBody().accept(this);
    held = saved;
    return false;
  }

  @Override
  public boolean visit(Block node) {
    HeldLockSet saved = held;
    for (Object o : node.statements()) {
      Statement statement = (Statement) o;
      statement.accept(this);
      Optional<LockCall> call = lockCallOf(statement);
      if (call.isPresent()) {
        if (call.get().action() == Action.ACQUIRE) {
          held = held.with(call.get().lock());
        } else if (call.get().action() == Action.RELEASE) {
          held = held.without(call.get().lock().id());
        }
      } else if (statement instanceof TryStatement attempt && attempt.getFinally() != null) {
        for (Object f : attempt.getFinally().statements()) {
          lockCallOf((Statement) f).filter(c -> c.action() == Action.RELEASE)
              .ifPresent(c -> held = held.without(c.lock().id()));
        }
      }
    }
    held = saved;
    return false;
  }

  @Override
  public boolean visit(IfStatement node) {
    Expression condition = Expressions.strip(node.getExpression());
    Body body = bodies.peek();
    if (body != null && condition instanceof MethodInvocation call) {
      Optional<LockCall> lockCall = lockExpressions.lockCall(call, types.enclosingTypeOf(node));
      if (lockCall.isPresent() && lockCall.get().action() == Action.TRY_ACQUIRE) {
        node.getExpression().accept(this);
        HeldLockSet saved = held;
        held = held.with(lockCall.get().lock());
        node.getThenStatement().accept(this);
        held = saved;
        if (node.getElseStatement() != null) {
          node.getElseStatement().accept(this);
        }
        return false;
      }
    }
    return true;
  }

  private Optional<LockCall> lockCallOf(Statement statement) {
    String enclosing = types.enclosingTypeOf(statement);
    if (statement instanceof ExpressionStatement expression
        && expression.getExpression() instanceof MethodInvocation call) {
      return lockExpressions.lockCall(call, enclosing)
          .or(() -> lockExpressions.stampedLockCall(call, enclosing));
    }
    // a StampedLock's stamp: long stamp = lock.writeLock(); or stamp = lock.readLock();
    Expression value = null;
    if (statement instanceof org.eclipse.jdt.core.dom.VariableDeclarationStatement declaration
        && declaration.fragments().size() == 1) {
      value = ((VariableDeclarationFragment) declaration.fragments().get(0)).getInitializer();
    } else if (statement instanceof ExpressionStatement expression
        && expression.getExpression() instanceof Assignment assignment) {
      value = assignment.getRightHandSide();
    }
    return value != null && Expressions.strip(value) instanceof MethodInvocation call
        ? lockExpressions.stampedLockCall(call, enclosing) : Optional.empty();
  }

  private void markSynchronizes(String owner) {
    TypeState state = typeStates.get(owner);
    if (state != null) {
      state.synchronizes = true;
    }
  }

  // ---- field accesses

  @Override
  public boolean visit(SimpleName node) {
    Body body = bodies.peek();
    if (body == null) {
      return false;
    }
    Optional<ResolvedField> resolved = fields.resolve(node);
    if (resolved.isEmpty()) {
      return false;
    }
    ResolvedField field = resolved.get();
    ASTNode access = node.getParent() instanceof FieldAccess || node.getParent() instanceof SuperFieldAccess
        || (node.getParent() instanceof QualifiedName q && q.getName() == node) ? node.getParent() : node;
    ASTNode context = access.getParent();
    while (context instanceof org.eclipse.jdt.core.dom.ParenthesizedExpression) {
      access = context;
      context = context.getParent();
    }
    AccessKind kind = AccessKind.READ;
    boolean readModifyWrite = false;
    if (context instanceof Assignment assignment && assignment.getLeftHandSide() == access) {
      kind = AccessKind.WRITE;
      readModifyWrite = assignment.getOperator() != Assignment.Operator.ASSIGN
          || readsField(assignment.getRightHandSide(), field.key());
    } else if (context instanceof PostfixExpression
        || (context instanceof PrefixExpression prefix
            && (prefix.getOperator() == PrefixExpression.Operator.INCREMENT
                || prefix.getOperator() == PrefixExpression.Operator.DECREMENT))) {
      kind = AccessKind.WRITE;
      readModifyWrite = true;
    }
    boolean initialisation = body.kind() != BodyKind.METHOD && body.kind() != BodyKind.LAMBDA
        && field.owner().equals(body.owner()) && field.isStatic() == body.isStatic() && onOwnObject(node, field);
    if (kind == AccessKind.WRITE) {
      ITypeBinding type = node.resolveTypeBinding();
      if (type != null && type.isFromSource() && type.isClass()) {
        String typeName = TypeNames.binaryName(type.getErasure());
        if (typeName != null) {
          objectWrites.add(new String[] {body.key(), Integer.toString(node.getStartPosition()), typeName});
        }
      }
    }
    Access recorded = new Access(field.key(), file, Expressions.lineOf(node), node.getStartPosition(), kind,
        readModifyWrite, held.locks(), initialisation, body.key(), body.label(), field.viaBinding(), List.of(),
        List.of());
    if (field.isVolatile()) {
      volatileAccesses.add(recorded);
    } else {
      accesses.add(recorded);
    }
    if (context instanceof ArrayAccess element && element.getArray() == access) {
      recordElementAccess(node, field, element, initialisation, body);
    }
    Expression assignedValue = ContainerCalls.assignedValue(access);
    if (assignedValue != null) {
      containersHeld.computeIfPresent(field.key(), (k, held) -> held.and(ContainerCalls.assigned(assignedValue)));
    }
    AccessKind container = ContainerCalls.mayHold(node.resolveTypeBinding()) ? ContainerCalls.kindOf(access) : null;
    if (container != null) { // cache.put(k, v), tags.add(t), for (T t : tags): a call on the container it holds
      accesses.add(new Access(field.key() + "{}", file, Expressions.lineOf(node), node.getStartPosition() + 1,
          container, false, held.locks(), initialisation, body.key(), body.label(), field.viaBinding(), List.of(),
          List.of()));
    }
    AccessKind bulk = BulkArrayAccesses.kindOf(access);
    if (bulk != null) { // System.arraycopy(slots, …), Arrays.fill(slots, …), slots.clone(): its elements
      accesses.add(new Access(field.key() + "[]", file, Expressions.lineOf(node), node.getStartPosition() + 1, bulk,
          false, held.locks(), initialisation, body.key(), body.label(), field.viaBinding(), List.of(), List.of()));
    }
    return false;
  }

  /**
   * {@code slots[i] = v} reads the field {@code slots} and writes an element of the array it holds: the element is
   * keyed {@code pkg.Cls.slots[]}, as the agent keys array races. A volatile array's elements are not volatile.
   */
  private void recordElementAccess(SimpleName node, ResolvedField field, ArrayAccess element, boolean initialisation,
      Body body) {
    ASTNode outer = element;
    while (outer.getParent() instanceof ArrayAccess parent && parent.getArray() == outer) {
      outer = parent; // slots[i][j]: an element of an element
    }
    ASTNode context = outer.getParent();
    while (context instanceof org.eclipse.jdt.core.dom.ParenthesizedExpression) {
      outer = context;
      context = context.getParent();
    }
    AccessKind kind = AccessKind.READ;
    boolean readModifyWrite = false;
    if (context instanceof Assignment assignment && assignment.getLeftHandSide() == outer) {
      kind = AccessKind.WRITE;
      readModifyWrite = assignment.getOperator() != Assignment.Operator.ASSIGN;
    } else if (context instanceof PostfixExpression
        || (context instanceof PrefixExpression prefix
            && (prefix.getOperator() == PrefixExpression.Operator.INCREMENT
                || prefix.getOperator() == PrefixExpression.Operator.DECREMENT))) {
      kind = AccessKind.WRITE;
      readModifyWrite = true;
    }
    accesses.add(new Access(field.key() + "[]", file, Expressions.lineOf(node), node.getStartPosition() + 1, kind,
        readModifyWrite, held.locks(), initialisation, body.key(), body.label(), field.viaBinding(), List.of(),
        List.of()));
  }

  /** {@code f}, {@code this.f}, {@code C.f}: the object (or class) being initialised, not some other one. */
  private static boolean onOwnObject(SimpleName node, ResolvedField field) {
    ASTNode parent = node.getParent();
    if (parent instanceof FieldAccess access && access.getName() == node) {
      return access.getExpression() instanceof ThisExpression self && self.getQualifier() == null;
    }
    if (parent instanceof QualifiedName qualified && qualified.getName() == node) {
      IBinding qualifier = qualified.getQualifier().resolveBinding();
      return field.isStatic() && (qualifier == null || qualifier instanceof ITypeBinding);
    }
    return true;
  }

  private boolean readsField(Expression expression, String fieldKey) {
    boolean[] found = {false};
    expression.accept(new ASTVisitor() {
      @Override
      public boolean visit(SimpleName name) {
        if (fields.resolve(name).filter(f -> f.key().equals(fieldKey)).isPresent()) {
          found[0] = true;
        }
        return false;
      }
    });
    return found[0];
  }
}
