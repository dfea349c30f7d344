package dev.racetriage.runner.fork;

import java.util.ArrayList;
import java.util.List;

/** Which tests a JVM runs: every test of the module, or the named ones (JUnit unique ids). */
public record TestSelection(List<String> uniqueIds) {
  public static final TestSelection ALL = new TestSelection(List.of());

  public TestSelection {
    uniqueIds = List.copyOf(uniqueIds);
  }

  public static TestSelection of(String... uniqueIds) {
    return new TestSelection(List.of(uniqueIds));
  }

  List<String> launcherArguments(java.nio.file.Path testClasses) {
    List<String> args = new ArrayList<>();
    if (uniqueIds.isEmpty()) {
      args.add("--scan");
      args.add(testClasses.toString());
    } else {
      for (String id : uniqueIds) {
        args.add("--select-id");
        args.add(id);
      }
    }
    return args;
  }
}
