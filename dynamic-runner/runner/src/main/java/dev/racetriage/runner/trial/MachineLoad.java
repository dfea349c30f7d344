package dev.racetriage.runner.trial;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The machine's load when a trial timed out, from {@code /proc/loadavg}: a timeout on a machine whose run queue is
 * longer than its cores is named as such in the evidence, so a user can tell a loaded machine from a slow race.
 */
public final class MachineLoad {
  private static final Path LOADAVG = Path.of("/proc/loadavg");

  private MachineLoad() {}

  /** "machine load 5.31 on 2 cores (/proc/loadavg)" when the 1-minute load exceeds the cores, else null. */
  public static String describeIfHigh() {
    return describeIfHigh(LOADAVG, Runtime.getRuntime().availableProcessors());
  }

  static String describeIfHigh(Path loadavg, int cores) {
    double load;
    try {
      String text = Files.readString(loadavg).trim();
      load = Double.parseDouble(text.split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return null; // not Linux, or unreadable: nothing to say
    }
    return load > cores
        ? String.format(Locale.ROOT, "machine load %.2f on %d core(s) (/proc/loadavg)", load, cores) : null;
  }
}
