package dev.racetriage.launcher;

import java.io.PrintStream;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs (or lists, or serves repeated runs of — {@code --serve}, see {@link TrialServer}) the selected tests of a
 * project in this JVM and writes the results file. Exit code 0 when the
 * launcher itself worked, whatever the tests did (their outcomes are in the file); 2 for bad arguments; 3 when the
 * JUnit Platform could not run at all; 4 when a test ran past its limit ({@link TestWatchdog}).
 */
public final class TestLauncherMain {
  private TestLauncherMain() {}

  public static void main(String[] args) {
    LaunchOptions options;
    try {
      options = LaunchOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("racetriage launcher: " + e.getMessage());
      System.exit(2);
      return;
    }
    int code;
    try {
      code = run(options);
    } catch (Throwable t) {
      System.err.println("racetriage launcher: the JUnit Platform could not run the tests: " + t);
      t.printStackTrace();
      code = 3;
    }
    // Non-daemon threads a test left behind must not keep the JVM alive.
    System.exit(code);
  }

  static int run(LaunchOptions options) throws Exception {
    long start = System.nanoTime();
    // In serve mode stdout is the protocol channel: the tests' own output goes to stderr.
    PrintStream protocol = System.out;
    if (options.serve()) {
      System.setOut(System.err);
    }
    TestLimits limits = TestLimits.read(options.testTimeoutMillis(), options.testLimits());
    if (options.heapPeak()) {
      HeapPeak.start();
    }
    try (ResultsFile results = new ResultsFile(options.results())) {
      TestTree tree = new TestTree();
      ResultsListener listener = new ResultsListener(results, tree);
      TestWatchdog watchdog = new TestWatchdog(results, tree, limits);
      Launcher launcher = LauncherFactory.create();
      LauncherDiscoveryRequest request = DiscoveryRequests.build(options, launcher, SkipIds.read(options.skipIds()));
      if (options.listOnly()) {
        TestPlan plan = launcher.discover(request);
        listener.listed(plan);
      } else if (options.serve()) {
        new TrialServer(launcher, request, listener, protocol, tree, watchdog).serve();
      } else {
        launcher.execute(request, tree, listener, watchdog);
      }
      listener.summary((System.nanoTime() - start) / 1_000_000);
    }
    return 0;
  }
}
