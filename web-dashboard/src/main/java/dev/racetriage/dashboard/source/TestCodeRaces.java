package dev.racetriage.dashboard.source;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.CodeScope;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which races are test-code races ({@link CodeScope#inTestCode}: every access in a file under {@code src/test}), for
 * the lists, counts and rows of the dashboard. The flag is derived, not stored: each access's file is found in the
 * project by {@link AccessSources}. The whole project's answer comes from one query over every race's accesses and is
 * kept until the store's data version moves.
 */
public final class TestCodeRaces {
  private final TriageStore store;
  private final AccessSources sources;
  private long version = Long.MIN_VALUE;
  private Set<String> testCode = Set.of();

  public TestCodeRaces(TriageStore store, AccessSources sources) {
    this.store = store;
    this.sources = sources;
  }

  /** Whether the race on {@code field} (a field key as stored) is a test-code race. */
  public boolean contains(String field) {
    return fieldKeys().contains(field);
  }

  /** The field keys of every test-code race, fixed ones included. */
  public synchronized Set<String> fieldKeys() {
    long now = store.dataVersion();
    if (now != version) {
      Set<String> found = new HashSet<>();
      for (Map.Entry<String, List<AccessSite>> race : store.races().accessesByField().entrySet()) {
        FieldKey field;
        try {
          field = FieldKey.parse(race.getKey());
        } catch (IllegalArgumentException unreadable) {
          continue; // listed as unreadable wherever it would appear
        }
        if (inTestCode(field, race.getValue())) found.add(race.getKey());
      }
      testCode = Set.copyOf(found);
      version = now;
    }
    return testCode;
  }

  /** Whether these accesses of {@code field} are all in test code. */
  public boolean inTestCode(FieldKey field, List<AccessSite> accesses) {
    return CodeScope.inTestCode(accesses.stream().map(a -> sources.projectPath(field, a).orElse(null)).toList());
  }
}
