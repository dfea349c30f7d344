package dev.racetriage.agent.options;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code key=value} pairs separated by {@code ;}. List values ({@code include}, {@code exclude}) are separated
 * by {@code ,}; each entry is a binary class-name prefix ({@code com.acme.} for a package, {@code com.acme.Foo} for a
 * class and its nested classes). Unknown keys, repeated keys and bad values are errors: the agent then leaves the
 * program uninstrumented and says so, rather than running with a configuration the user did not ask for.
 */
public final class AgentOptionsParser {

  static final List<String> KEYS = List.of("mode", "out", "include", "exclude", "stack", "verbose", "dump");

  private AgentOptionsParser() {
  }

  public static AgentOptions parse(String argument) throws InvalidAgentOptionException {
    AgentOptions defaults = AgentOptions.defaults();
    String mode = defaults.mode();
    String out = defaults.out();
    List<String> includes = new ArrayList<>();
    List<String> excludes = new ArrayList<>();
    int stack = defaults.stackDepth();
    boolean verbose = defaults.verbose();
    String dump = defaults.dumpDir();
    if (argument == null || argument.isBlank()) {
      return defaults;
    }
    List<String> seen = new ArrayList<>();
    for (String pair : argument.split(";", -1)) {
      if (pair.isBlank()) {
        continue; // tolerate "a=1;;b=2" and a trailing ';'
      }
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new InvalidAgentOptionException(pair.strip(),
            "option '" + pair.strip() + "' is not of the form key=value (known keys: " + String.join(", ", KEYS) + ")");
      }
      String key = pair.substring(0, eq).strip();
      String value = pair.substring(eq + 1).strip();
      if (!KEYS.contains(key)) {
        throw new InvalidAgentOptionException(key,
            "unknown option '" + key + "' (known keys: " + String.join(", ", KEYS) + ")");
      }
      if (seen.contains(key)) {
        throw new InvalidAgentOptionException(key, "option '" + key + "' is given twice");
      }
      seen.add(key);
      switch (key) {
        case "mode" -> {
          if (!AgentOptions.MODE_DETECT.equals(value)) {
            throw new InvalidAgentOptionException(key,
                "option 'mode' has value '" + value + "'; this agent supports mode=detect");
          }
          mode = value;
        }
        case "out" -> out = requireNonEmpty(key, value);
        case "include" -> includes.addAll(prefixes(key, value));
        case "exclude" -> excludes.addAll(prefixes(key, value));
        case "stack" -> stack = stackDepth(value);
        case "verbose" -> verbose = bool(key, value);
        case "dump" -> dump = requireNonEmpty(key, value);
        default -> throw new IllegalStateException("key list and switch disagree on " + key);
      }
    }
    return new AgentOptions(mode, out, includes, excludes, stack, verbose, dump);
  }

  private static String requireNonEmpty(String key, String value) throws InvalidAgentOptionException {
    if (value.isEmpty()) {
      throw new InvalidAgentOptionException(key, "option '" + key + "' needs a value");
    }
    return value;
  }

  private static List<String> prefixes(String key, String value) throws InvalidAgentOptionException {
    List<String> result = new ArrayList<>();
    for (String entry : requireNonEmpty(key, value).split(",")) {
      String prefix = entry.strip();
      if (prefix.isEmpty()) {
        continue;
      }
      if (prefix.contains("/") || prefix.contains("*")) {
        throw new InvalidAgentOptionException(key, "option '" + key + "' has entry '" + prefix
            + "'; use binary class-name prefixes with dots, e.g. com.acme. or com.acme.Foo");
      }
      result.add(prefix);
    }
    return result;
  }

  private static int stackDepth(String value) throws InvalidAgentOptionException {
    try {
      int depth = Integer.parseInt(value);
      if (depth >= 0 && depth <= 64) {
        return depth;
      }
    } catch (NumberFormatException e) {
      // fall through to the message below
    }
    throw new InvalidAgentOptionException("stack", "option 'stack' has value '" + value + "'; expected 0..64");
  }

  private static boolean bool(String key, String value) throws InvalidAgentOptionException {
    return switch (value) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new InvalidAgentOptionException(key,
          "option '" + key + "' has value '" + value + "'; expected true or false");
    };
  }
}
