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

  public static ThreadContexts compute(Collection<MethodFacts> methods, Collection<CallEdge> calls) {
    Map<String, List<String>> callees = new HashMap<>();
    for (CallEdge call : calls) {
      callees.computeIfAbsent(call.caller(), k -> new ArrayList<>()).add(call.callee());
    }
    ThreadContexts result = new ThreadContexts();
    List<String> callerRoots = new ArrayList<>();
    for (MethodFacts method : methods) {
      if (method.entry() != ThreadEntry.NONE) {
        Context entry = new Context(method.key(), method.label(), method.entry() == ThreadEntry.MANY_THREADS);
        result.flood(List.of(method.key()), entry, callees);
      } else if (method.kind() != BodyKind.LAMBDA && (!method.isPrivate() || method.isInitialiser())) {
        callerRoots.add(method.key());
      }
    }
    result.flood(callerRoots, CALLERS, callees);
    // a private method or lambda nobody calls (reflection, a caller we could not resolve): assume any caller
    for (MethodFacts method : methods) {
      result.contexts.computeIfAbsent(method.key(), k -> new LinkedHashSet<>(List.of(CALLERS)));
    }
    return result;
  }

  /** The contexts of a body; a body the analysis never saw runs on {@link #CALLERS}. */
  public Set<Context> of(String methodKey) {
    return contexts.getOrDefault(methodKey, Set.of(CALLERS));
  }

  private void flood(List<String> roots, Context context, Map<String, List<String>> callees) {
    Deque<String> work = new ArrayDeque<>(roots);
    while (!work.isEmpty()) {
      String method = work.pop();
      if (contexts.computeIfAbsent(method, k -> new LinkedHashSet<>()).add(context)) {
        work.addAll(callees.getOrDefault(method, List.of()));
      }
    }
  }
}
