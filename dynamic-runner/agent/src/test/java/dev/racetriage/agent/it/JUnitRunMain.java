package dev.racetriage.agent.it;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import java.io.PrintWriter;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs the JUnit tests of one package ({@code pkg}) or one class ({@code class:pkg.Cls}) in this JVM and exits 0 iff they all passed — the forked JVM the
 * integration tests start under the agent to run a project's test suite. (It sits in the agent's package on purpose:
 * the agent does not instrument itself, so only the project's classes are instrumented.)
 */
public final class JUnitRunMain {
  private JUnitRunMain() {
  }

  public static void main(String[] args) {
    LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
        .selectors(args[0].startsWith("class:") ? selectClass(args[0].substring(6)) : selectPackage(args[0]))
        .build();
    Launcher launcher = LauncherFactory.create();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    launcher.execute(request, listener);
    TestExecutionSummary summary = listener.getSummary();
    summary.printTo(new PrintWriter(System.out, true));
    summary.printFailuresTo(new PrintWriter(System.out, true), 20);
    boolean ok = summary.getTotalFailureCount() == 0 && summary.getTestsSucceededCount() > 0;
    System.exit(ok ? 0 : 1);
  }
}
