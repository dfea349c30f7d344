package dev.racetriage.prefilter.threads;

import dev.racetriage.prefilter.facts.CallEdge;
import dev.racetriage.prefilter.facts.MethodFacts;
import dev.racetriage.prefilter.facts.MethodFacts.BodyKind;
import dev.racetriage.prefilter.facts.MethodFacts.ThreadEntry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which threads may run each body of code. A context is either the thread of some caller outside the project's view
 * ({@link #CALLERS}: a non-private method can be called from anywhere), or a thread entry (a run() method, a lambda
 * handed to an executor). Contexts flow along calls: a method called from run() runs on run()'s thread.
 */
public final class ThreadContexts {

  /**
   * A thread a body may run on.
   *
   * @param id {@code callers} or the key of the entry body
   * @param label for reasons: {@code callers}, {@code run()}, {@code lambda at line 12}
   * @param many whether several threads run it at once (executor tasks, parallel streams, threads started in a loop)
   */
  public record Context(String id, String label, boolean many) {
    public boolean isEntry() {
      return !id.equals(CALLERS.id);
    }
  }

  public static final Context CALLERS = new Context("callers", "callers", false);

  private final Map<String, Set<Context>> contexts = new HashMap<>();

  private ThreadContexts() {}

  /**
   * @param methods every body of the project
   * @param calls every call
   * @param publicApi classes whose non-private methods are called from anywhere, even those the project calls
   *     itself ({@code @ThreadSafe} classes)
   */
  public static ThreadContexts compute(Collection<MethodFacts> methods, Collection<CallEdge> calls,
      java.util.function.Predicate<String> publicApi) {
    Map<String, List<CallEdge>> callees = new HashMap<>();
    Set<String> calledInProject = new java.util.HashSet<>();
    for (CallEdge call : calls) {
      callees.computeIfAbsent(call.caller(), k -> new ArrayList<>()).add(call);
      if (!call.dispatch()) {
        calledInProject.add(call.callee());
      }
    }
    Map<String, String> labels = new HashMap<>();
    methods.forEach(m -> labels.put(m.key(), label(m)));
    ThreadContexts result = new ThreadContexts();
    List<String> callerRoots = new ArrayList<>();
    for (MethodFacts method : methods) {
      if (method.entry() != ThreadEntry.NONE) {
        Context entry = new Context(method.key(), label(method), method.entry() == ThreadEntry.MANY_THREADS);
        result.flood(List.of(method.key()), entry, callees, labels);
      } else if (method.kind() != BodyKind.LAMBDA && (!method.isPrivate() || method.isInitialiser())
          && (!calledInProject.contains(method.key()) || publicApi.test(method.owner()))) {
        // an entry point of the project's API: a method the project calls itself runs where the project calls it
        callerRoots.add(method.key());
      }
    }
    result.flood(callerRoots, CALLERS, callees, labels);
    // code reached from nowhere (reflection, callers we could not resolve, dead code): assume any caller
    for (MethodFacts method : methods) {
      if (!result.contexts.containsKey(method.key())) {
        result.flood(List.of(method.key()), CALLERS, callees, labels);
      }
    }
    return result;
  }

  /** {@code Worker.run()}, {@code lambda at Main.java:12}. */
  private static String label(MethodFacts method) {
    if (method.kind() == BodyKind.LAMBDA) {
      return method.label();
    }
    String owner = method.owner();
    return owner.substring(Math.max(owner.lastIndexOf('.'), owner.lastIndexOf('$')) + 1) + "." + method.label();
  }

  /** The contexts of a body; a body the analysis never saw runs on {@link #CALLERS}. */
  public Set<Context> of(String methodKey) {
    return contexts.getOrDefault(methodKey, Set.of(CALLERS));
  }

  private void flood(List<String> roots, Context context, Map<String, List<CallEdge>> callees,
      Map<String, String> labels) {
    Deque<Map.Entry<String, Context>> work = new ArrayDeque<>();
    roots.forEach(root -> work.push(Map.entry(root, context)));
    while (!work.isEmpty()) {
      Map.Entry<String, Context> item = work.pop();
      if (!contexts.computeIfAbsent(item.getKey(), k -> new LinkedHashSet<>()).add(item.getValue())) {
        continue;
      }
      for (CallEdge call : callees.getOrDefault(item.getKey(), List.of())) {
        Context next = item.getValue();
        if (call.dispatch() && next.isEntry()) {
          // one task object runs on one of the pool's threads: its own context, run once
          // keyed by the thread's own entry, so a recursive dispatch reaches the same context and stops
          String entry = next.id().contains("->") ? next.id().substring(0, next.id().indexOf("->")) : next.id();
          String entryLabel = next.label().contains(" (run by ")
              ? next.label().substring(next.label().indexOf(" (run by ") + 9, next.label().length() - 1)
              : next.label();
          next = new Context(entry + "->" + call.callee(),
              labels.getOrDefault(call.callee(), call.callee()) + " (run by " + entryLabel + ")", false);
        }
        work.push(Map.entry(call.callee(), next));
      }
    }
  }
}
