package dev.racetriage.corpus.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.J_Result;

/** benchmarks/corpus TornStamp (JLS 17.7): a plain long written with equal halves, read concurrently. */
@JCStressTest
@Outcome(id = {"0", "4294967297"}, expect = ACCEPTABLE, desc = "one whole write")
@Outcome(expect = ACCEPTABLE_INTERESTING, desc = "weak: torn, halves of two writes (the corpus test fails)")
@State
public class LongTearingStress {
  long stamp;

  @Actor
  public void writer() {
    stamp = 0x1_0000_0001L;
  }

  @Actor
  public void reader(J_Result r) {
    r.r1 = stamp;
  }
}
