package dev.racetriage.launcher;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The launcher's command line:
 * {@code --results FILE [--list | --serve] [--scan DIR]... [--select-class C]... [--select-method C#m]... [--select-id ID]...}.
 * With no selector every test under the {@code --scan} roots whose class name follows Surefire's default pattern runs.
 * {@code --serve} runs the selection once per command read from stdin ({@link TrialServer}).
 */
record LaunchOptions(Path results, boolean listOnly, boolean serve, List<Path> scanRoots, List<String> classes,
    List<String> methods, List<String> uniqueIds) {

  static LaunchOptions parse(String[] args) {
    Path results = null;
    boolean listOnly = false;
    boolean serve = false;
    List<Path> scanRoots = new ArrayList<>();
    List<String> classes = new ArrayList<>();
    List<String> methods = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--list" -> listOnly = true;
        case "--serve" -> serve = true;
        case "--results" -> results = Path.of(value(args, ++i, arg));
        case "--scan" -> scanRoots.add(Path.of(value(args, ++i, arg)));
        case "--select-class" -> classes.add(value(args, ++i, arg));
        case "--select-method" -> methods.add(value(args, ++i, arg));
        case "--select-id" -> ids.add(value(args, ++i, arg));
        default -> throw new IllegalArgumentException("unknown launcher option '" + arg + "'");
      }
    }
    if (results == null) {
      throw new IllegalArgumentException("--results FILE is required");
    }
    if (scanRoots.isEmpty() && classes.isEmpty() && methods.isEmpty() && ids.isEmpty()) {
      throw new IllegalArgumentException("nothing to run: give --scan DIR or a --select-* option");
    }
    if (listOnly && serve) {
      throw new IllegalArgumentException("--list and --serve exclude each other");
    }
    return new LaunchOptions(results, listOnly, serve, scanRoots, classes, methods, ids);
  }

  private static String value(String[] args, int index, String option) {
    if (index >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[index];
  }
}
