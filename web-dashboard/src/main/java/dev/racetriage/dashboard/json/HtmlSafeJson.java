package dev.racetriage.dashboard.json;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The JSON the API writes. Test output and source lines reach the browser through it, so beyond JSON's own rules it
 * escapes {@code < > & '} as JSON unicode escapes (backslash, u003c for {@code <}): a response that some client
 * mistakes for HTML, or that someone pastes into a page, still cannot open a tag. Times are ISO-8601 strings.
 */
public final class HtmlSafeJson {
  private HtmlSafeJson() {}

  public static ObjectMapper mapper() {
    ObjectMapper mapper = new ObjectMapper();
    mapper.registerModule(new JavaTimeModule());
    mapper.disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    mapper.getFactory().setCharacterEscapes(new HtmlEscapes());
    return mapper;
  }

  private static final class HtmlEscapes extends CharacterEscapes {
    private final int[] escapes;

    HtmlEscapes() {
      escapes = standardAsciiEscapesForJSON();
      for (char c : new char[] {'<', '>', '&', '\''}) {
        escapes[c] = ESCAPE_STANDARD;
      }
    }

    @Override
    public int[] getEscapeCodesForAscii() {
      return escapes;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
      return null;
    }
  }
}
