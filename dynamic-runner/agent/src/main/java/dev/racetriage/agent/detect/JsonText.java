package dev.racetriage.agent.detect;

/**
 * A tiny JSON writer for the report file (the agent has no library but the JDK). Builds one JSON value into a
 * {@link StringBuilder}; commas between members and elements are inserted automatically.
 */
public final class JsonText {
    private final StringBuilder out;
    /** Per nesting level: whether the next member/element needs a leading comma. */
    private boolean[] needsComma = new boolean[8];
    private int depth;

    public JsonText(StringBuilder out) {
        this.out = out;
    }

    public JsonText beginObject() {
        separate();
        out.append('{');
        push();
        return this;
    }

    public JsonText endObject() {
        depth--;
        out.append('}');
        return this;
    }

    public JsonText beginArray() {
        separate();
        out.append('[');
        push();
        return this;
    }

    public JsonText endArray() {
        depth--;
        out.append(']');
        return this;
    }

    /** A member name; the next value call writes its value. */
    public JsonText name(String name) {
        separate();
        quote(out, name);
        out.append(':');
        needsComma[depth] = false;
        return this;
    }

    public JsonText value(String s) {
        separate();
        if (s == null) {
            out.append("null");
        } else {
            quote(out, s);
        }
        return this;
    }

    public JsonText value(long n) {
        separate();
        out.append(n);
        return this;
    }

    public JsonText value(boolean b) {
        separate();
        out.append(b);
        return this;
    }

    private void separate() {
        if (depth > 0) {
            if (needsComma[depth]) {
                out.append(',');
            }
            needsComma[depth] = true;
        }
    }

    private void push() {
        depth++;
        if (depth == needsComma.length) {
            needsComma = java.util.Arrays.copyOf(needsComma, depth * 2);
        }
        needsComma[depth] = false;
    }

    /**
     * Appends s as a JSON string literal (RFC 8259 §7): quote, backslash and every control character below U+0020
     * are escaped; U+2028/U+2029 too, so a line of the file is a line for every reader; and lone surrogates (a
     * thread may be named anything), which a UTF-8 writer would otherwise turn into '?'. Other characters are written
     * as they are.
     */
    public static void quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029' || isLoneSurrogate(s, i)) {
                        out.append("\\u");
                        String hex = Integer.toHexString(c);
                        out.append("0000", hex.length(), 4).append(hex);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static boolean isLoneSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        return Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)));
    }

    public static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2);
        quote(sb, s);
        return sb.toString();
    }
}
