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

  static final List<String> KEYS = List.of("mode", "out", "include", "exclude", "stack", "verbose", "dump", "field",
      "heuristic", "seed", "bound", "indices", "noise", "cache", "flush", "arrays", "predict", "predictEvents", "containers");
  /** The keys that only mean something in jumble mode. */
  static final List<String> JUMBLE_KEYS = List.of("field", "heuristic", "seed", "bound", "indices", "noise");
  /** The keys that only mean something in detect mode (jumble mode writes its report at exit). */
  static final List<String> DETECT_KEYS = List.of("flush", "arrays", "predict", "predictEvents", "containers");
  static final List<String> HEURISTICS = List.of("sc", "oldest", "oldest-but-different", "random",
      "random-but-different", "perturb");

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
    List<String> fields = new ArrayList<>();
    String heuristic = null;
    long seed = 0;
    int bound = JumbleOptions.DEFAULT_BOUND;
    List<Integer> indices = JumbleOptions.DEFAULT_INDICES;
    boolean noise = false;
    String cache = defaults.cache();
    int flush = defaults.flushMillis();
    int arrays = defaults.maxArrayElements();
    boolean predict = defaults.predict();
    long predictEvents = defaults.predictEvents();
    boolean containers = defaults.containers();
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
          if (!AgentOptions.MODE_DETECT.equals(value) && !AgentOptions.MODE_JUMBLE.equals(value)) {
            throw new InvalidAgentOptionException(key,
                "option 'mode' has value '" + value + "'; this agent supports mode=detect and mode=jumble");
          }
          mode = value;
        }
        case "out" -> out = requireNonEmpty(key, value);
        case "include" -> includes.addAll(prefixes(key, value));
        case "exclude" -> excludes.addAll(prefixes(key, value));
        case "stack" -> stack = stackDepth(value);
        case "verbose" -> verbose = bool(key, value);
        case "dump" -> dump = requireNonEmpty(key, value);
        case "field" -> fields.addAll(fieldKeys(value));
        case "heuristic" -> heuristic = heuristic(value);
        case "seed" -> seed = seed(value);
        case "bound" -> bound = bound(value);
        case "indices" -> indices = indices(value);
        case "noise" -> noise = onOff(key, value);
        case "cache" -> cache = requireNonEmpty(key, value);
        case "flush" -> flush = flushMillis(value);
        case "arrays" -> arrays = maxArrayElements(value);
        case "predict" -> predict = bool(key, value);
        case "predictEvents" -> predictEvents = predictEvents(value);
        case "containers" -> containers = bool(key, value);
        default -> throw new IllegalStateException("key list and switch disagree on " + key);
      }
    }
    if (!AgentOptions.MODE_JUMBLE.equals(mode)) {
      for (String key : JUMBLE_KEYS) {
        if (seen.contains(key)) {
          throw new InvalidAgentOptionException(key, "option '" + key + "' only applies with mode=jumble");
        }
      }
      return new AgentOptions(mode, out, includes, excludes, stack, verbose, dump, null, cache, flush, arrays, predict,
          predictEvents, containers);
    }
    for (String key : DETECT_KEYS) {
      if (seen.contains(key)) {
        throw new InvalidAgentOptionException(key, "option '" + key + "' only applies with mode=detect");
      }
    }
    if (fields.isEmpty()) {
      throw new InvalidAgentOptionException("field",
          "mode=jumble needs field=<pkg.Cls.f> (or pkg.Cls.arr[] for an array field), comma-separated for several");
    }
    if (heuristic == null) {
      throw new InvalidAgentOptionException("heuristic",
          "mode=jumble needs heuristic=<" + String.join("|", HEURISTICS) + ">");
    }
    boolean containerKeys = true;
    for (String f : fields) {
      containerKeys &= f.endsWith("{}");
    }
    if (heuristic.equals("perturb") != containerKeys && !(heuristic.equals("sc") && containerKeys)) {
      throw new InvalidAgentOptionException("heuristic", containerKeys
          ? "container keys (pkg.Cls.map{}) are tried under heuristic=sc or heuristic=perturb, not '" + heuristic + "'"
          : "heuristic=perturb tries container keys only (pkg.Cls.map{}); field= names " + fields);
    }
    return new AgentOptions(mode, out, includes, excludes, stack, verbose, dump,
        new JumbleOptions(fields, heuristic, seed, bound, indices, noise), cache, 0, arrays, false, 0, false);
  }

  private static List<String> fieldKeys(String value) throws InvalidAgentOptionException {
    List<String> result = new ArrayList<>();
    for (String entry : requireNonEmpty("field", value).split(",")) {
      String key = entry.strip();
      if (key.isEmpty()) {
        continue;
      }
      String bare = key.endsWith("[]") || key.endsWith("{}") ? key.substring(0, key.length() - 2) : key;
      if (key.endsWith("{}") && bare.endsWith("()")) {
        bare = bare.substring(0, bare.length() - 2); // a container no field held: pkg.Cls.method(){}
      }
      int dot = bare.lastIndexOf('.');
      if (dot <= 0 || dot == bare.length() - 1 || bare.contains("/") || bare.contains("[") || bare.contains("(")) {
        throw new InvalidAgentOptionException("field", "option 'field' has entry '" + key
            + "'; expected a field key pkg.Cls.field (binary class name, e.g. com.acme.Outer$Inner.count) or"
            + " pkg.Cls.field[] for the elements of the arrays held in that field, pkg.Cls.field{} for the container"
            + " it holds");
      }
      if (!result.contains(key)) {
        result.add(key);
      }
    }
    if (result.isEmpty()) {
      throw new InvalidAgentOptionException("field", "option 'field' names no field");
    }
    return result;
  }

  private static String heuristic(String value) throws InvalidAgentOptionException {
    if (!HEURISTICS.contains(value)) {
      throw new InvalidAgentOptionException("heuristic", "option 'heuristic' has value '" + value
          + "'; use one of " + String.join(", ", HEURISTICS));
    }
    return value;
  }

  private static long seed(String value) throws InvalidAgentOptionException {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new InvalidAgentOptionException("seed", "option 'seed' has value '" + value + "'; expected a long");
    }
  }

  private static int bound(String value) throws InvalidAgentOptionException {
    try {
      int bound = Integer.parseInt(value);
      if (bound >= 2 && bound <= 64) {
        return bound;
      }
    } catch (NumberFormatException e) {
      // fall through to the message below
    }
    throw new InvalidAgentOptionException("bound", "option 'bound' has value '" + value + "'; expected 2..64");
  }

  private static List<Integer> indices(String value) throws InvalidAgentOptionException {
    List<Integer> result = new ArrayList<>();
    for (String entry : requireNonEmpty("indices", value).split(",")) {
      String index = entry.strip();
      try {
        int i = Integer.parseInt(index);
        if (i >= 0) {
          if (!result.contains(i)) {
            result.add(i);
          }
          continue;
        }
      } catch (NumberFormatException e) {
        // fall through to the message below
      }
      throw new InvalidAgentOptionException("indices", "option 'indices' has entry '" + index
          + "'; expected non-negative array indices, e.g. indices=0,1");
    }
    return result;
  }

  private static boolean onOff(String key, String value) throws InvalidAgentOptionException {
    return switch (value) {
      case "on" -> true;
      case "off" -> false;
      default -> throw new InvalidAgentOptionException(key,
          "option '" + key + "' has value '" + value + "'; expected on or off");
    };
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

  private static int flushMillis(String value) throws InvalidAgentOptionException {
    try {
      int millis = Integer.parseInt(value);
      if (millis == 0 || millis >= AgentOptions.MIN_FLUSH_MILLIS && millis <= AgentOptions.MAX_FLUSH_MILLIS) {
        return millis;
      }
    } catch (NumberFormatException e) {
      // fall through to the message below
    }
    throw new InvalidAgentOptionException("flush", "option 'flush' has value '" + value + "'; expected milliseconds "
        + AgentOptions.MIN_FLUSH_MILLIS + ".." + AgentOptions.MAX_FLUSH_MILLIS + " between flushes of the report, or 0"
        + " to write it only at exit");
  }

  private static int maxArrayElements(String value) throws InvalidAgentOptionException {
    try {
      int n = Integer.parseInt(value);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // fall through to the message below
    }
    throw new InvalidAgentOptionException("arrays", "option 'arrays' has value '" + value + "'; expected the largest"
        + " number of elements of an array checked element by element (0.." + Integer.MAX_VALUE + "; default "
        + AgentOptions.DEFAULT_MAX_ARRAY_ELEMENTS + ", up to 12 bytes of shadow per element written)");
  }

  private static long predictEvents(String value) throws InvalidAgentOptionException {
    try {
      long n = Long.parseLong(value);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // fall through to the message below
    }
    throw new InvalidAgentOptionException("predictEvents", "option 'predictEvents' has value '" + value
        + "'; expected how many events the predictive analysis takes before it stops (default "
        + AgentOptions.DEFAULT_PREDICT_EVENTS + "), or 0 for no limit");
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
