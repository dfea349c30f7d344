package dev.racetriage.prefilter.facts;

/**
 * Tasks that reach threads through a project method's parameter: {@code static void twice(Runnable task) { new
 * Thread(task).start(); .. }} hands parameter 0 to a thread, so a lambda passed there is a thread entry. The two halves
 * usually sit in different files and are joined when ranking.
 *
 * @param method the project method ({@link MethodFacts#key()})
 * @param index the parameter position
 * @param task for an argument: the key of the lambda or method reference passed there; empty for a parameter
 * @param entry for a parameter: how the method runs what it is given
 */
public record TaskHandoff(String method, int index, String task, MethodFacts.ThreadEntry entry) {

  public static TaskHandoff parameter(String method, int index, MethodFacts.ThreadEntry entry) {
    return new TaskHandoff(method, index, "", entry);
  }

  public static TaskHandoff argument(String method, int index, String task) {
    return new TaskHandoff(method, index, task, MethodFacts.ThreadEntry.NONE);
  }

  public boolean isParameter() {
    return task.isEmpty();
  }
}
