package dev.racetriage.runner.trial;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a failing group splits: the fields its failure points at first (no JVM: the run's JSON as the server sends it). */
class GroupSplitTest {
  private static final List<String> GROUP = List.of("demo.Init.box", "demo.CacheA.cached", "demo.CacheB.cached",
      "demo.CacheC.cached", "demo.CacheD.cached");

  private static JsonNode run(String message, String stack, String... served) throws Exception {
    StringBuilder fields = new StringBuilder();
    for (String f : GROUP) {
      if (fields.length() > 0) fields.append(',');
      fields.append("{\"field\":\"").append(f).append("\",\"reads\":10,\"staleReads\":")
          .append(List.of(served).contains(f) ? 3 : 0).append('}');
    }
    return new ObjectMapper().readTree("{\"status\":\"failed\",\"failure\":{\"type\":\"java.lang.NullPointerException\","
        + "\"message\":" + new ObjectMapper().writeValueAsString(message) + ",\"stack\":"
        + new ObjectMapper().writeValueAsString(stack) + "},\"fields\":[" + fields + "]}");
  }

  @Test
  void aFailureWhoseStackNamesAServedFieldsClassSplitsThatFieldOffAlone() throws Exception {
    JsonNode npe = run("Cannot invoke \"demo.Init$Box.size()\" because \"this.box\" is null",
        "java.lang.NullPointerException\n\tat demo.Init.size(Init.java:12)\n\tat demo.MixedTest.lambda$0(MixedTest.java:30)",
        GROUP.toArray(String[]::new));
    List<String> suspects = GroupScreen.suspects(GROUP, npe);
    assertEquals(List.of("demo.Init.box"), suspects);
    assertEquals(List.of(List.of("demo.Init.box"), GROUP.subList(1, 5)), GroupScreen.halves(GROUP, suspects),
        "the destructive field alone, the four caches on as one group: not halves that leave a cache beside it");
  }

  @Test
  void anAssertionNamingTheClassBySimpleNamePointsAtItToo() throws Exception {
    JsonNode wrong = run("CacheC computed a wrong value", "java.lang.AssertionError\n\tat demo.MixedTest.check",
        GROUP.toArray(String[]::new));
    assertEquals(List.of("demo.CacheC.cached"), GroupScreen.suspects(GROUP, wrong));
  }

  @Test
  void withoutANamedClassTheFieldsServedStaleValuesAreSuspectsAndOtherwiseHalves() throws Exception {
    JsonNode silent = run("expected 4 but was 3", "java.lang.AssertionError\n\tat demo.MixedTest.check",
        "demo.CacheB.cached", "demo.CacheD.cached");
    List<String> suspects = GroupScreen.suspects(GROUP, silent);
    assertEquals(List.of("demo.CacheB.cached", "demo.CacheD.cached"), suspects,
        "a field served no stale value in the failing run cannot explain it");
    assertEquals(List.of(suspects, List.of("demo.Init.box", "demo.CacheA.cached", "demo.CacheC.cached")),
        GroupScreen.halves(GROUP, suspects));
    // every field served, none named: the group halves as before
    JsonNode all = run("expected 4 but was 3", "", GROUP.toArray(String[]::new));
    assertEquals(List.of(GROUP.subList(0, 2), GROUP.subList(2, 5)),
        GroupScreen.halves(GROUP, GroupScreen.suspects(GROUP, all)));
  }
}
