package dev.racetriage.corpus.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * benchmarks/corpus HelperHolder (JPR dcl, Figure 10): each actor reports the helper's value, or -1 when the re-read
 * returned null.
 */
@JCStressTest
@Outcome(id = "42, 42", expect = ACCEPTABLE, desc = "both see a constructed helper")
@Outcome(expect = ACCEPTABLE_INTERESTING, desc = "weak: null or a partially constructed helper (the corpus test fails)")
@State
public class DoubleCheckedLockingStress {
  static final class Helper {
    int value;

    Helper() {
      value = 42;
    }
  }

  private Helper helper;

  private Helper getHelper() {
    if (helper == null) {
      synchronized (this) {
        if (helper == null) {
          helper = new Helper();
        }
      }
    }
    return helper;
  }

  private int valueSeen() {
    Helper h = getHelper();
    return h == null ? -1 : h.value;
  }

  @Actor
  public void first(II_Result r) {
    r.r1 = valueSeen();
  }

  @Actor
  public void second(II_Result r) {
    r.r2 = valueSeen();
  }
}
