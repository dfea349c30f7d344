package dev.racetriage.prefilter.threads;

import dev.racetriage.prefilter.facts.MethodFacts.ThreadEntry;
import java.util.List;
import java.util.Set;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.AbstractTypeDeclaration;
import org.eclipse.jdt.core.dom.AnonymousClassDeclaration;
import org.eclipse.jdt.core.dom.BodyDeclaration;
import org.eclipse.jdt.core.dom.ClassInstanceCreation;
import org.eclipse.jdt.core.dom.DoStatement;
import org.eclipse.jdt.core.dom.EnhancedForStatement;
import org.eclipse.jdt.core.dom.Expression;
import org.eclipse.jdt.core.dom.ForStatement;
import org.eclipse.jdt.core.dom.ITypeBinding;
import org.eclipse.jdt.core.dom.LambdaExpression;
import org.eclipse.jdt.core.dom.MethodDeclaration;
import org.eclipse.jdt.core.dom.MethodInvocation;
import org.eclipse.jdt.core.dom.ParameterizedType;
import org.eclipse.jdt.core.dom.Type;
import org.eclipse.jdt.core.dom.TypeDeclaration;
import org.eclipse.jdt.core.dom.WhileStatement;

/**
 * Recognises code that runs on another thread: tasks handed to {@code new Thread(..)}, executors,
 * {@code CompletableFuture.*Async}, virtual-thread builders and parallel streams, and the {@code run()}/{@code call()}
 * of Runnable, Thread, TimerTask and Callable classes.
 */
public final class ThreadEntries {

  /** Executors and async APIs run their tasks on pool threads, possibly several at once. */
  private static final Set<String> POOL_METHODS = Set.of("execute", "submit", "invokeAll", "invokeAny", "schedule",
      "scheduleAtFixedRate", "scheduleWithFixedDelay", "runAsync", "supplyAsync", "thenApplyAsync",
      "thenAcceptAsync", "thenRunAsync", "thenComposeAsync", "thenCombineAsync", "whenCompleteAsync", "handleAsync",
      "exceptionallyAsync");
  /** One new thread per call. */
  private static final Set<String> THREAD_METHODS = Set.of("startVirtualThread", "start", "unstarted", "newThread");
  private static final Set<String> THREAD_TYPES = Set.of("Runnable", "Thread", "TimerTask", "Callable");

  private ThreadEntries() {}

  /** How a task passed as argument to {@code call} runs: on a pool, on a new thread, or where the caller runs. */
  public static ThreadEntry forArgumentOf(MethodInvocation call) {
    String name = call.getName().getIdentifier();
    if (POOL_METHODS.contains(name)) {
      return ThreadEntry.MANY_THREADS;
    }
    if (THREAD_METHODS.contains(name)) {
      return inLoop(call) ? ThreadEntry.MANY_THREADS : ThreadEntry.ONE_THREAD;
    }
    if (onParallelStream(call.getExpression())) {
      return ThreadEntry.MANY_THREADS;
    }
    return ThreadEntry.NONE;
  }

  /** How a task passed to a constructor runs: {@code new Thread(task)} starts one thread (several in a loop). */
  public static ThreadEntry forArgumentOf(ClassInstanceCreation creation) {
    if (!isThreadType(creation.getType(), creation.resolveTypeBinding(), "Thread")) {
      return ThreadEntry.NONE;
    }
    return inLoop(creation) ? ThreadEntry.MANY_THREADS : ThreadEntry.ONE_THREAD;
  }

  /** Whether a declared method is the body of a thread: run() of a Runnable/Thread/TimerTask, call() of a Callable. */
  public static boolean isThreadBody(MethodDeclaration method) {
    String name = method.getName().getIdentifier();
    if (method.isConstructor() || !method.parameters().isEmpty()
        || !(name.equals("run") || name.equals("call"))) {
      return false;
    }
    ASTNode owner = method.getParent();
    ITypeBinding binding = null;
    List<Type> declaredSupertypes = List.of();
    if (owner instanceof TypeDeclaration type) {
      binding = type.resolveBinding();
      declaredSupertypes = new java.util.ArrayList<>();
      if (type.getSuperclassType() != null) {
        declaredSupertypes.add(type.getSuperclassType());
      }
      for (Object t : type.superInterfaceTypes()) {
        declaredSupertypes.add((Type) t);
      }
    } else if (owner instanceof AnonymousClassDeclaration anonymous) {
      binding = anonymous.resolveBinding();
      if (anonymous.getParent() instanceof ClassInstanceCreation creation) {
        declaredSupertypes = List.of(creation.getType());
      }
    }
    String wanted = name.equals("run") ? "java.lang.Runnable" : "java.util.concurrent.Callable";
    if (binding != null && !binding.isRecovered() && implementsType(binding, wanted)) {
      return true;
    }
    for (Type t : declaredSupertypes) {
      String simple = simpleName(t);
      if (name.equals("run") ? !simple.equals("Callable") && THREAD_TYPES.contains(simple) : simple.equals("Callable")) {
        return true;
      }
    }
    return false;
  }

  /**
   * A Runnable or Callable lambda kept in a variable or field ({@code Runnable task = () -> ..}) rather than passed
   * straight to a call: the variable is almost always handed to a thread or executor later.
   */
  public static boolean isStoredTask(LambdaExpression lambda) {
    ASTNode parent = lambda.getParent();
    if (!(parent instanceof org.eclipse.jdt.core.dom.VariableDeclarationFragment
        || parent instanceof org.eclipse.jdt.core.dom.Assignment)) {
      return false;
    }
    ITypeBinding type = lambda.resolveTypeBinding();
    if (type == null || type.isRecovered()) {
      return false;
    }
    String name = type.getErasure().getQualifiedName();
    return name.equals("java.lang.Runnable") || name.equals("java.util.concurrent.Callable");
  }

  private static boolean isThreadType(Type type, ITypeBinding binding, String simple) {
    if (binding != null && !binding.isRecovered()) {
      for (ITypeBinding t = binding.getErasure(); t != null; t = t.getSuperclass()) {
        if (t.getQualifiedName().equals("java.lang." + simple)) {
          return true;
        }
      }
      return false;
    }
    return simpleName(type).equals(simple);
  }

  private static boolean implementsType(ITypeBinding type, String qualifiedName) {
    if (type == null) {
      return false;
    }
    ITypeBinding erasure = type.getErasure();
    if (erasure.getQualifiedName().equals(qualifiedName)) {
      return true;
    }
    for (ITypeBinding parent : erasure.getInterfaces()) {
      if (implementsType(parent, qualifiedName)) {
        return true;
      }
    }
    return implementsType(erasure.getSuperclass(), qualifiedName);
  }

  private static String simpleName(Type type) {
    Type raw = type instanceof ParameterizedType parameterized ? parameterized.getType() : type;
    String text = raw.toString();
    return text.substring(text.lastIndexOf('.') + 1);
  }

  /** {@code list.parallelStream().forEach(..)}, {@code stream.parallel().map(..)}. */
  private static boolean onParallelStream(Expression receiver) {
    Expression e = receiver;
    while (e instanceof MethodInvocation call) {
      String name = call.getName().getIdentifier();
      if (name.equals("parallelStream") || name.equals("parallel")) {
        return true;
      }
      e = call.getExpression();
    }
    return false;
  }

  /** Whether {@code node} sits in a loop of its own body (a thread started in a loop runs several times at once). */
  private static boolean inLoop(ASTNode node) {
    for (ASTNode n = node.getParent(); n != null; n = n.getParent()) {
      if (n instanceof ForStatement || n instanceof EnhancedForStatement || n instanceof WhileStatement
          || n instanceof DoStatement) {
        return true;
      }
      if (n instanceof BodyDeclaration || n instanceof LambdaExpression || n instanceof AbstractTypeDeclaration) {
        return false;
      }
    }
    return false;
  }
}
