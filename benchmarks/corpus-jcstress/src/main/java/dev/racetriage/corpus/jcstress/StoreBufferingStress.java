package dev.racetriage.corpus.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/** benchmarks/corpus StoreBuffering (RELAXER Figure 1): r1 = y after x = 1, r2 = x after y = 1. */
@JCStressTest
@Outcome(id = {"0, 1", "1, 0", "1, 1"}, expect = ACCEPTABLE, desc = "sequentially consistent")
@Outcome(id = "0, 0", expect = ACCEPTABLE_INTERESTING, desc = "weak: both writes seen late (the corpus test fails)")
@State
public class StoreBufferingStress {
  int x, y;

  @Actor
  public void first(II_Result r) {
    x = 1;
    r.r1 = y;
  }

  @Actor
  public void second(II_Result r) {
    y = 1;
    r.r2 = x;
  }
}
