package dev.racetriage.prefilter.facts;

/**
 * A call from one body to another, both named by {@link MethodFacts#key()}.
 *
 * @param dispatch a call through a functional interface to one lambda or method reference that implements it
 *     ({@code body.run()} reaching {@code () -> shared.produce()}): the lambda object is one task, so a pool that runs
 *     many tasks runs this one on a single thread
 */
public record CallEdge(String caller, String callee, boolean dispatch) {

  public CallEdge(String caller, String callee) {
    this(caller, callee, false);
  }
}
