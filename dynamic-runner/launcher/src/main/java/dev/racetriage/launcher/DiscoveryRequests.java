package dev.racetriage.launcher;

import dev.racetriage.launcher.select.ClassScan;
import dev.racetriage.launcher.select.TestSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;

/**
 * Builds the discovery request for what the launcher was asked to run, as Surefire's JUnit Platform provider would:
 * the classes the class filter lets through (by class file, as Surefire scans), the tag filters, the configuration
 * parameters. When single methods are chosen ({@code -Dtest=Class#method}) or tests are to be skipped, the plan is
 * discovered first and the request becomes the unique ids of what is left ({@link PlanPruning}).
 */
final class DiscoveryRequests {
  private DiscoveryRequests() {}

  static LauncherDiscoveryRequest build(LaunchOptions options, Launcher launcher, Set<String> skipIds) {
    List<DiscoverySelector> selectors = new ArrayList<>();
    if (!options.scanRoots().isEmpty()) {
      TestSpec classSpec = options.filters().classSpec();
      for (Path root : options.scanRoots()) {
        ClassScan.classes(root, classSpec).forEach(c -> selectors.add(DiscoverySelectors.selectClass(c)));
      }
    }
    options.classes().forEach(c -> selectors.add(DiscoverySelectors.selectClass(c)));
    options.methods().forEach(m -> selectors.add(DiscoverySelectors.selectMethod(m)));
    options.uniqueIds().forEach(id -> selectors.add(DiscoverySelectors.selectUniqueId(id)));
    LauncherDiscoveryRequest request = request(options, selectors);
    TestSpec methodSpec = options.filters().methodSpec();
    if (methodSpec == null && skipIds.isEmpty()) {
      return request;
    }
    List<DiscoverySelector> kept = new ArrayList<>();
    for (String id : PlanPruning.keep(launcher.discover(request), methodSpec, skipIds)) {
      kept.add(DiscoverySelectors.selectUniqueId(id));
    }
    return request(options, kept);
  }

  private static LauncherDiscoveryRequest request(LaunchOptions options, List<DiscoverySelector> selectors) {
    LauncherDiscoveryRequestBuilder builder = LauncherDiscoveryRequestBuilder.request().selectors(selectors);
    LaunchOptions.Filters filters = options.filters();
    if (!filters.groups().isEmpty()) {
      builder.filters(TagFilter.includeTags(filters.groups()));
    }
    if (!filters.excludedGroups().isEmpty()) {
      builder.filters(TagFilter.excludeTags(filters.excludedGroups()));
    }
    options.config().forEach(builder::configurationParameter);
    return builder.build();
  }
}
