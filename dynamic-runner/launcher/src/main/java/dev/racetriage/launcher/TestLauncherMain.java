package dev.racetriage.launcher;

import static org.junit.platform.engine.discovery.ClassNameFilter.STANDARD_INCLUDE_PATTERN;
import static org.junit.platform.engine.discovery.ClassNameFilter.includeClassNamePatterns;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs (or lists, or serves repeated runs of — {@code --serve}, see {@link TrialServer}) the selected tests of a
 * project in this JVM and writes the results file. Exit code 0 when the
 * launcher itself worked, whatever the tests did (their outcomes are in the file); 2 for bad arguments; 3 when the
 * JUnit Platform could not run at all.
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
    try (ResultsFile results = new ResultsFile(options.results())) {
      ResultsListener listener = new ResultsListener(results);
      Launcher launcher = LauncherFactory.create();
      LauncherDiscoveryRequest request = request(options);
      if (options.listOnly()) {
        TestPlan plan = launcher.discover(request);
        listener.listed(plan);
      } else if (options.serve()) {
        new TrialServer(launcher, request, listener, protocol).serve();
      } else {
        launcher.execute(request, listener);
      }
      listener.summary((System.nanoTime() - start) / 1_000_000);
    }
    return 0;
  }

  private static LauncherDiscoveryRequest request(LaunchOptions options) {
    List<DiscoverySelector> selectors = new ArrayList<>();
    boolean scanning = !options.scanRoots().isEmpty();
    if (scanning) {
      selectors.addAll(DiscoverySelectors.selectClasspathRoots(new HashSet<Path>(options.scanRoots())));
    }
    options.classes().forEach(c -> selectors.add(DiscoverySelectors.selectClass(c)));
    options.methods().forEach(m -> selectors.add(DiscoverySelectors.selectMethod(m)));
    options.uniqueIds().forEach(id -> selectors.add(DiscoverySelectors.selectUniqueId(id)));
    LauncherDiscoveryRequestBuilder builder = LauncherDiscoveryRequestBuilder.request().selectors(selectors);
    if (scanning) {
      // Surefire's default includes, so racetriage runs what `mvn test` runs.
      builder.filters(includeClassNamePatterns(STANDARD_INCLUDE_PATTERN));
    }
    return builder.build();
  }
}
