package dev.racetriage.launcher;

/**
 * One line of the trial server's stdin: {@code run} (repeat the selected tests as they are), {@code run HEURISTIC SEED}
 * or {@code run HEURISTIC SEED noise} (first give the agent a fresh jumble run: new buffers, that heuristic and seed,
 * schedule noise on or off), or {@code quit}. Blank lines are ignored by the caller.
 */
record RunCommand(boolean quit, String heuristic, long seed, boolean noise) {

  static final String SYNTAX = "'run', 'run HEURISTIC SEED [noise]' or 'quit'";

  boolean resetsJumble() {
    return heuristic != null;
  }

  static RunCommand parse(String line) {
    String[] words = line.trim().split("\\s+");
    switch (words[0]) {
      case "quit" -> {
        if (words.length == 1) return new RunCommand(true, null, 0, false);
      }
      case "run" -> {
        if (words.length == 1) return new RunCommand(false, null, 0, false);
        if (words.length == 3 || (words.length == 4 && "noise".equals(words[3]))) {
          try {
            return new RunCommand(false, words[1], Long.parseLong(words[2]), words.length == 4);
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the seed must be a long, not '" + words[2] + "'");
          }
        }
      }
      default -> { }
    }
    throw new IllegalArgumentException("unknown command '" + line.trim() + "'; use " + SYNTAX);
  }
}
