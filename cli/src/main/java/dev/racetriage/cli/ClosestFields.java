package dev.racetriage.cli;

import dev.racetriage.store.FieldKey;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/** The known field keys nearest to a mistyped one (edit distance on the whole key), for "did you mean". */
final class ClosestFields {
  private ClosestFields() {}

  static List<FieldKey> to(FieldKey typed, Collection<FieldKey> known, int limit) {
    String target = typed.toString();
    return known.stream()
        .distinct()
        .sorted(Comparator.comparingInt((FieldKey key) -> distance(target, key.toString()))
            .thenComparing(Comparator.naturalOrder()))
        .limit(limit)
        .toList();
  }

  /** Levenshtein distance, two rows: keys are short and a project has at most a few thousand races. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
