package dev.racetriage.agent.detect;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class JsonTextTest {

    @Test
    void escapesQuotesBackslashesAndControlCharacters() {
        assertEquals("\"a\\\"b\\\\c\\n\\r\\t\\b\\f\\u0001\\u001f\\u2028\"",
                JsonText.quote("a\"b\\c\n\r\t\b\f\u0001\u001f\u2028"));
    }

    @Test
    void everyCharacterRoundTripsThroughAStrictParser() {
        StringBuilder all = new StringBuilder();
        for (char c = 0; c < 0x3000; c++) {
            all.append(c);
        }
        all.append("😀 pkg.Outer$Inner.<init>");
        String quoted = JsonText.quote(all.toString());
        assertFalse(quoted.contains("\n"), "one JSON line stays one line");
        assertEquals(all.toString(), JsonCheck.parse(quoted));
    }

    @Test
    void loneSurrogatesAreEscapedAndPairsKept() {
        assertEquals("\"a\\ud800b\\udc00\"", JsonText.quote("a\ud800b\udc00"));
        assertEquals("\"\ud83d\ude00\"", JsonText.quote("\ud83d\ude00"));
        assertEquals("x\ud800", JsonCheck.parse(JsonText.quote("x\ud800")));
    }

    @Test
    void buildsNestedValuesWithCommasInTheRightPlaces() {
        StringBuilder sb = new StringBuilder();
        JsonText j = new JsonText(sb).beginObject();
        j.name("a").value(1).name("b").beginArray().value("x").value(true).value((String) null)
                .beginObject().endObject().beginArray().endArray().endArray();
        j.name("c").beginObject().name("d").value(-5).endObject();
        j.endObject();
        assertEquals("{\"a\":1,\"b\":[\"x\",true,null,{},[]],\"c\":{\"d\":-5}}", sb.toString());
        assertEquals(Map.of("a", 1L, "b", java.util.Arrays.asList("x", true, null, Map.of(), List.of()),
                "c", Map.of("d", -5L)), JsonCheck.parse(sb.toString()));
    }

    @Test
    void deepNestingGrowsItsStack() {
        StringBuilder sb = new StringBuilder();
        JsonText j = new JsonText(sb);
        for (int i = 0; i < 20; i++) {
            j.beginArray().value(i);
        }
        for (int i = 0; i < 20; i++) {
            j.endArray();
        }
        Object parsed = JsonCheck.parse(sb.toString());
        assertEquals(0L, ((List<?>) parsed).get(0));
    }
}
