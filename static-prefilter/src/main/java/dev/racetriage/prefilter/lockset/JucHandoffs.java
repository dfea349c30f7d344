package dev.racetriage.prefilter.lockset;

import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.ASTVisitor;
import org.eclipse.jdt.core.dom.CompilationUnit;
import org.eclipse.jdt.core.dom.Expression;
import org.eclipse.jdt.core.dom.IMethodBinding;
import org.eclipse.jdt.core.dom.ITypeBinding;
import org.eclipse.jdt.core.dom.IVariableBinding;
import org.eclipse.jdt.core.dom.LambdaExpression;
import org.eclipse.jdt.core.dom.MethodInvocation;
import org.eclipse.jdt.core.dom.SimpleName;
import dev.racetriage.prefilter.parse.TypeNames;

/**
 * java.util.concurrent hand-offs at one call: which side of a happens-before edge the call is (its memory consistency
 * effects: actions before {@code put}/{@code countDown}/{@code complete}/{@code submit} happen before those after the
 * matching {@code take}/{@code await}/{@code get}), on which object, and which project classes travel through it —
 * the element type of a queue, an exchanger or a future, and the objects a task submitted to an executor captures.
 */
final class JucHandoffs {
  /** Calls that publish what the caller did before them to whoever acquires the same object afterwards. */
  private static final Set<String> RELEASES = Set.of("put", "offer", "add", "addFirst", "addLast", "offerFirst",
      "offerLast", "putFirst", "putLast", "transfer", "tryTransfer", "countDown", "complete", "obtrudeValue",
      "release", "arrive", "arriveAndDeregister", "arriveAndAwaitAdvance", "exchange", "set", "lazySet",
      "setRelease", "compareAndSet", "getAndSet", "incrementAndGet", "getAndIncrement", "decrementAndGet",
      "getAndDecrement", "addAndGet", "getAndAdd", "accumulateAndGet", "getAndAccumulate", "updateAndGet",
      "getAndUpdate");
  /** Calls after which the caller sees what was released on the same object before them. */
  private static final Set<String> ACQUIRES = Set.of("take", "poll", "pollFirst", "pollLast", "takeFirst",
      "takeLast", "peek", "element", "remove", "await", "get", "join", "getNow", "acquire", "tryAcquire",
      "acquireUninterruptibly", "arriveAndAwaitAdvance", "awaitAdvance", "awaitAdvanceInterruptibly", "exchange",
      "getAcquire", "compareAndSet", "getAndSet", "incrementAndGet", "getAndIncrement", "decrementAndGet",
      "getAndDecrement", "addAndGet", "getAndAdd", "accumulateAndGet", "getAndAccumulate", "updateAndGet",
      "getAndUpdate", "getCount", "isDone", "resultNow");
  /** Executor methods whose task argument runs on another thread after the call. */
  private static final Set<String> TASK_SUBMISSIONS = Set.of("submit", "execute", "invokeAll", "invokeAny",
      "schedule", "runAsync", "supplyAsync", "thenApplyAsync", "thenAcceptAsync", "thenRunAsync");

  private JucHandoffs() {
  }

  /**
   * Whether the call is a method of a java.util.concurrent class or interface (or of its atomics; not of its locks,
   * whose held sections are tracked apart).
   */
  static boolean isJucMethod(MethodInvocation call) {
    IMethodBinding method = call.resolveMethodBinding();
    ITypeBinding owner = method == null ? null : method.getDeclaringClass();
    if (owner == null) {
      return false;
    }
    String pkg = owner.getErasure().getPackage() == null ? "" : owner.getErasure().getPackage().getName();
    return pkg.equals("java.util.concurrent") || pkg.equals("java.util.concurrent.atomic");
  }

  /** A java.util.concurrent method called on an object: a hand-off on that object when it releases or acquires. */
  static boolean isJucCall(MethodInvocation call) {
    return call.getExpression() != null && isJucMethod(call);
  }

  static boolean releases(MethodInvocation call) {
    return RELEASES.contains(call.getName().getIdentifier());
  }

  static boolean acquires(MethodInvocation call) {
    return ACQUIRES.contains(call.getName().getIdentifier());
  }

  /** The synchronisation object a hand-off call names: {@code Owner#queue} for {@code queue} or {@code this.queue}. */
  static String objectKey(MethodInvocation call, String enclosingType) {
    Expression receiver = call.getExpression();
    String text = receiver.toString();
    if (text.startsWith("this.")) {
      text = text.substring("this.".length());
    }
    if (receiver instanceof SimpleName name && name.resolveBinding() instanceof IVariableBinding v && v.isField()
        && v.getDeclaringClass() != null) {
      String owner = TypeNames.binaryName(v.getDeclaringClass());
      return "juc:" + (owner != null ? owner : enclosingType) + "#" + text;
    }
    return "juc:" + enclosingType + "#" + text;
  }

  /**
   * Project classes whose instances this call hands between threads: type arguments (from source) of the
   * receiver's and the result's java.util.concurrent types ({@code BlockingQueue<Job>}, {@code Exchanger<Job>},
   * {@code CompletableFuture<Job>}), and for a task submitted to an executor, the types of the locals it captures.
   */
  static Set<String> handedOffTypes(MethodInvocation call) {
    Set<String> found = new TreeSet<>();
    if (!isJucMethod(call)) {
      return found;
    }
    if (call.getExpression() != null) {
      addTypeArguments(call.getExpression().resolveTypeBinding(), found);
    }
    IMethodBinding method = call.resolveMethodBinding();
    if (method != null) {
      addTypeArguments(method.getReturnType(), found);
    }
    if (TASK_SUBMISSIONS.contains(call.getName().getIdentifier())) {
      for (Object argument : call.arguments()) {
        if (argument instanceof LambdaExpression lambda) {
          addCapturedTypes(lambda, found);
        }
      }
    }
    return found;
  }

  private static void addTypeArguments(ITypeBinding type, Set<String> found) {
    if (type == null || !type.isParameterizedType()) {
      return;
    }
    String pkg = type.getErasure().getPackage() == null ? "" : type.getErasure().getPackage().getName();
    if (!pkg.equals("java.util.concurrent")) {
      return;
    }
    for (ITypeBinding argument : type.getTypeArguments()) {
      addProjectType(argument, found);
    }
  }

  private static void addProjectType(ITypeBinding type, Set<String> found) {
    if (type != null && type.isFromSource() && type.isClass()) {
      String name = TypeNames.binaryName(type.getErasure());
      if (name != null) {
        found.add(name);
      }
    }
  }

  /** Locals (and parameters) declared outside the lambda that its body uses: the objects the task carries. */
  private static void addCapturedTypes(LambdaExpression lambda, Set<String> found) {
    int start = lambda.getStartPosition();
    int end = start + lambda.getLength();
    lambda.getBody().accept(new ASTVisitor() {
      @Override
      public boolean visit(SimpleName name) {
        if (name.resolveBinding() instanceof IVariableBinding v && !v.isField()) {
          ASTNode declaration = ((CompilationUnit) lambda.getRoot()).findDeclaringNode(v);
          if (declaration != null && (declaration.getStartPosition() < start || declaration.getStartPosition() >= end)) {
            addProjectType(v.getType(), found);
          }
        }
        return true;
      }
    });
  }
}
