package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** Race-free: jobs passed producer → queue → consumer → pool task; each job ends with three attempts. */
class JobPipelineTest {
  @Test
  void everyJobIsAttemptedOncePerStage() throws Throwable {
    JobPipeline pipeline = new JobPipeline();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    int[] total = new int[1];
    try {
      Concurrently.run(() -> pipeline.produce(10), () -> total[0] = pipeline.consume(10, pool));
    } finally {
      pool.shutdown();
    }
    assertEquals(30, total[0]);
  }
}
