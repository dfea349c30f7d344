package dev.racetriage.store.sqlite;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racetriage.store.StoreException;
import java.util.List;

/** JSON-encoded columns (string lists such as stacks, patterns and reasons; evidence objects). */
public final class JsonColumns {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};

  private JsonColumns() {}

  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new StoreException("cannot encode " + value.getClass().getSimpleName() + " as JSON: " + e.getMessage(), e);
    }
  }

  public static List<String> strings(String json) {
    return json == null ? List.of() : read(json, STRINGS);
  }

  public static <T> T read(String json, Class<T> type) {
    try {
      return MAPPER.readValue(json, type);
    } catch (JsonProcessingException e) {
      throw new StoreException("stored JSON is not a " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
    }
  }

  private static <T> T read(String json, TypeReference<T> type) {
    try {
      return MAPPER.readValue(json, type);
    } catch (JsonProcessingException e) {
      throw new StoreException("stored JSON has an unexpected shape: " + e.getOriginalMessage(), e);
    }
  }
}
