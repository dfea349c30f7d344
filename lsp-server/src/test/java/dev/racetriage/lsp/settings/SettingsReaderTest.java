package dev.racetriage.lsp.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SettingsReaderTest {
  private final List<String> problems = new ArrayList<>();

  private ServerSettings read(String json) {
    return SettingsReader.read(JsonParser.parseString(json), ServerSettings.defaults(), problems::add);
  }

  @Test
  void readsTheRacetriageSectionOrTheBareObject() {
    ServerSettings wrapped = read("{\"racetriage\": {\"startDaemon\": true, \"database\": \"db/t.db\","
        + " \"daemonCommand\": [\"java\", \"-jar\", \"rt.jar\", \"daemon\"], \"dashboardUrl\": \"http://h:1/\"}}");
    assertTrue(wrapped.startDaemon());
    assertEquals(Optional.of(Path.of("db/t.db")), wrapped.database());
    assertEquals(Path.of("/w/db/t.db"), wrapped.databaseFor(Path.of("/w")));
    assertEquals(List.of("java", "-jar", "rt.jar", "daemon"), wrapped.daemonCommand());
    assertEquals(URI.create("http://h:1/"), wrapped.dashboardUrl());
    assertEquals(read("{\"startDaemon\": true}").startDaemon(), true);
    assertEquals(List.of(), problems);
  }

  @Test
  void wrongTypesKeepThePreviousValueAndSayWhy() {
    ServerSettings settings = read("{\"racetriage\": {\"startDaemon\": \"yes\", \"debounceMillis\": [],"
        + " \"dashboardUrl\": \"not a url\", \"staticCandidates\": false}}");
    assertFalse(settings.startDaemon());
    assertEquals(ServerSettings.defaults().debounceMillis(), settings.debounceMillis());
    assertEquals(ServerSettings.DEFAULT_DASHBOARD, settings.dashboardUrl());
    assertFalse(settings.staticCandidates(), "the valid setting next to the typos still applies");
    assertEquals(3, problems.size(), problems.toString());
  }

  @Test
  void nothingOrSomethingElseKeepsEverything() {
    ServerSettings defaults = ServerSettings.defaults();
    assertEquals(defaults, SettingsReader.read(null, defaults, problems::add));
    assertEquals(defaults, SettingsReader.read(JsonParser.parseString("[1, 2]"), defaults, problems::add));
    assertEquals(true, SettingsReader.read(Map.of("racetriage", Map.of("startDaemon", true)), defaults,
        problems::add).startDaemon());
    assertEquals(Path.of("/w/.racetriage/triage.db"), defaults.databaseFor(Path.of("/w")));
  }
}
