package dev.racetriage.runner.verdict;

import dev.racetriage.store.verdicts.Verdict;
import java.util.Map;

/**
 * A verdict with the reason stated the way a user reads it, the heuristic that decided it (null when none did), and
 * the named figures behind it.
 */
public record Classification(Verdict verdict, String summary, String decisiveHeuristic, Map<String, String> facts) {
  public Classification {
    facts = Map.copyOf(facts);
  }
}
