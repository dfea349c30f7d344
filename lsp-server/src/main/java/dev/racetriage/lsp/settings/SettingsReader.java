package dev.racetriage.lsp.settings;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reads {@link ServerSettings} from whatever JSON a client sends. Clients differ: VS Code sends
 * {@code {"racetriage": {...}}}, some Neovim setups send the inner object, some send nothing. A value of the wrong type
 * keeps the previous setting and is reported through {@code problems}, so one typo never resets everything.
 */
public final class SettingsReader {
  private SettingsReader() {}

  public static ServerSettings read(Object json, ServerSettings previous, Consumer<String> problems) {
    JsonObject section = section(json);
    if (section == null) {
      return previous;
    }
    Optional<Path> database = previous.database();
    if (section.has("database")) {
      String value = string(section, "database", problems);
      if (value != null) {
        try {
          database = value.isBlank() ? Optional.empty() : Optional.of(Path.of(value));
        } catch (InvalidPathException e) {
          problems.accept("racetriage.database: '" + value + "' is not a valid path; keeping " + database);
        }
      }
    }
    URI dashboard = previous.dashboardUrl();
    String dashboardText = section.has("dashboardUrl") ? string(section, "dashboardUrl", problems) : null;
    if (dashboardText != null) {
      try {
        URI parsed = URI.create(dashboardText);
        if (parsed.getScheme() == null) {
          throw new IllegalArgumentException("no scheme");
        }
        dashboard = parsed;
      } catch (IllegalArgumentException e) {
        problems.accept("racetriage.dashboardUrl: '" + dashboardText + "' is not an absolute URL (like "
            + ServerSettings.DEFAULT_DASHBOARD + "); keeping " + dashboard);
      }
    }
    List<String> daemonCommand = previous.daemonCommand();
    if (section.has("daemonCommand")) {
      JsonElement value = section.get("daemonCommand");
      if (value.isJsonArray() && !value.getAsJsonArray().isEmpty()) {
        List<String> parts = new ArrayList<>();
        for (JsonElement part : (JsonArray) value) {
          parts.add(part.isJsonPrimitive() ? part.getAsString() : part.toString());
        }
        daemonCommand = parts;
      } else if (value.isJsonPrimitive() && !value.getAsString().isBlank()) {
        daemonCommand = List.of(value.getAsString().trim().split("\\s+"));
      } else {
        problems.accept("racetriage.daemonCommand must be a list of strings like [\"racetriage\", \"daemon\"]");
      }
    }
    return new ServerSettings(
        database,
        dashboard,
        bool(section, "startDaemon", previous.startDaemon(), problems),
        daemonCommand,
        bool(section, "staticCandidates", previous.staticCandidates(), problems),
        bool(section, "mavenClasspath", previous.mavenClasspath(), problems),
        number(section, "debounceMillis", previous.debounceMillis(), problems),
        number(section, "storePollMillis", previous.storePollMillis(), problems),
        Optional.ofNullable(section.has("author") ? string(section, "author", problems) : null)
            .orElse(previous.author()));
  }

  private static JsonObject section(Object json) {
    JsonElement element;
    if (json == null) {
      return null;
    } else if (json instanceof JsonElement e) {
      element = e;
    } else {
      // LSP4J hands untyped params over as Gson trees; anything else (a test's Map) goes through its JSON text
      element = JsonParser.parseString(new com.google.gson.Gson().toJson(json));
    }
    if (!element.isJsonObject()) {
      return null;
    }
    JsonObject object = element.getAsJsonObject();
    JsonElement nested = object.get("racetriage");
    return nested != null && nested.isJsonObject() ? nested.getAsJsonObject() : object;
  }

  private static String string(JsonObject section, String key, Consumer<String> problems) {
    JsonElement value = section.get(key);
    if (value != null && value.isJsonPrimitive()) {
      return value.getAsString();
    }
    if (value != null && !value.isJsonNull()) {
      problems.accept("racetriage." + key + " must be a string, not " + value);
    }
    return null;
  }

  private static boolean bool(JsonObject section, String key, boolean previous, Consumer<String> problems) {
    JsonElement value = section.get(key);
    if (value == null || value.isJsonNull()) {
      return previous;
    }
    if (value.isJsonPrimitive() && value.getAsJsonPrimitive().isBoolean()) {
      return value.getAsBoolean();
    }
    problems.accept("racetriage." + key + " must be true or false, not " + value + "; keeping " + previous);
    return previous;
  }

  private static long number(JsonObject section, String key, long previous, Consumer<String> problems) {
    JsonElement value = section.get(key);
    if (value == null || value.isJsonNull()) {
      return previous;
    }
    if (value.isJsonPrimitive() && value.getAsJsonPrimitive().isNumber()) {
      return value.getAsLong();
    }
    problems.accept("racetriage." + key + " must be a number of milliseconds, not " + value + "; keeping " + previous);
    return previous;
  }
}
