import dev.racetriage.prefilter.Analysis;
import dev.racetriage.prefilter.Prefilter;
import dev.racetriage.prefilter.parse.Classpath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Prefilter speed for the editor: a synthetic project of FILES files is scanned once (cold, in a fresh JVM), then
 * one changed ~2,000-line file is re-analysed from its text RUNS times (after WARMUP runs) with
 * {@link Prefilter#update}; prints the median and spread. Usage: see run.sh.
 */
public final class PrefilterBenchmark {

  public static void main(String[] args) throws Exception {
    int files = Integer.parseInt(arg(args, 0, "200"));
    int bigLines = Integer.parseInt(arg(args, 1, "2000"));
    int warmup = Integer.parseInt(arg(args, 2, "10"));
    int runs = Integer.parseInt(arg(args, 3, "50"));
    Path root = Files.createTempDirectory("prefilter-bench");
    Path big = SyntheticProject.write(root, files, bigLines);
    long lines = 0;
    try (var walk = Files.walk(root)) {
      for (Path p : walk.filter(p -> p.toString().endsWith(".java")).toList()) {
        lines += Files.readAllLines(p).size();
      }
    }
    System.out.printf("project: %d files, %d lines; changed file %s: %d lines%n", files, lines,
        root.relativize(big), Files.readAllLines(big).size());

    var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    Prefilter prefilter = Prefilter.open(root, Classpath.given(List.of()));
    Analysis cold = prefilter.scan();
    double coldMs = (System.nanoTime() - t0) / 1e6;
    System.out.printf("cold batch scan (first in this JVM): %.0f ms, %d candidates; process CPU time %.0f ms"
        + " (every thread, JIT compilers included)%n", coldMs, cold.candidates().size(),
        (os.getProcessCpuTime() - cpu0) / 1e6);
    List<Double> warmScans = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      long s = System.nanoTime();
      prefilter.scan();
      warmScans.add((System.nanoTime() - s) / 1e6);
    }
    System.out.printf("warm batch scan: median %.0f ms of 3%n", median(warmScans));

    String original = Files.readString(big);
    List<Double> times = new ArrayList<>();
    List<Double> cpuTimes = new ArrayList<>();
    // an update runs on the calling thread alone: its CPU time is what it costs whatever else loads the machine
    java.lang.management.ThreadMXBean threadBean = java.lang.management.ManagementFactory.getThreadMXBean();
    int candidates = 0;
    for (int i = 0; i < warmup + runs; i++) {
      // a keystroke-sized edit that changes the analysis: toggle one method's synchronized
      String edited = i % 2 == 0 ? original.replaceFirst("public synchronized void put0", "public void put0")
          : original;
      long cpu = threadBean.getCurrentThreadCpuTime();
      long s = System.nanoTime();
      Analysis analysis = prefilter.update(big, edited);
      double ms = (System.nanoTime() - s) / 1e6;
      double cpuMs = (threadBean.getCurrentThreadCpuTime() - cpu) / 1e6;
      candidates = analysis.candidates().size();
      if (i >= warmup) {
        times.add(ms);
        cpuTimes.add(cpuMs);
      }
    }
    List<Double> rankOnly = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      long s = System.nanoTime();
      prefilter.current();
      rankOnly.add((System.nanoTime() - s) / 1e6);
    }
    System.out.printf("of which ranking the whole project again (no parsing): median %.1f ms of 10%n",
        median(rankOnly));
    Collections.sort(times);
    System.out.printf("incremental update of the changed file: median %.1f ms, p90 %.1f ms, min %.1f ms,"
        + " max %.1f ms over %d runs (after %d warm-up runs); %d candidates%n", median(times),
        times.get((int) Math.ceil(times.size() * 0.9) - 1), times.get(0), times.get(times.size() - 1), runs, warmup,
        candidates);
    Collections.sort(cpuTimes);
    System.out.printf("CPU time of the updating thread: median %.1f ms, p90 %.1f ms%n", median(cpuTimes),
        cpuTimes.get((int) Math.ceil(cpuTimes.size() * 0.9) - 1));
  }

  private static String arg(String[] args, int i, String fallback) {
    return args.length > i ? args[i] : fallback;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
