package dev.racetriage.corpus.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/** benchmarks/corpus MessagePassing (RELAXER Figure 2, flag publication): (done, x) as the reader saw them. */
@JCStressTest
@Outcome(id = {"0, 0", "0, 1", "1, 1"}, expect = ACCEPTABLE, desc = "sequentially consistent")
@Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "weak: the flag without the data (the figure's ERROR)")
@State
public class MessagePassingStress {
  int x, y, done;

  @Actor
  public void writer() {
    x = 1;
    y = 1;
    done = 1;
  }

  @Actor
  public void reader(II_Result r) {
    r.r1 = done;
    r.r2 = x;
  }
}
