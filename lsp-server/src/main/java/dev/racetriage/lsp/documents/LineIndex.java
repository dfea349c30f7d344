package dev.racetriage.lsp.documents;

import java.util.Arrays;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;

/**
 * Converts between LSP positions (0-based line, UTF-16 character) and character offsets of a text. Java strings are
 * UTF-16, so the LSP default encoding maps onto {@code String} indexes directly. Out-of-range positions are clamped:
 * a client that is one edit behind must not make the server throw.
 */
public final class LineIndex {
  private final String text;
  private final int[] lineStarts;
  private final int length;

  private LineIndex(String text, int[] lineStarts) {
    this.text = text;
    this.lineStarts = lineStarts;
    this.length = text.length();
  }

  public static LineIndex of(String text) {
    int[] starts = new int[16];
    int count = 1;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean lineBreak = c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'));
      if (lineBreak) {
        if (count == starts.length) {
          starts = Arrays.copyOf(starts, count * 2);
        }
        starts[count++] = i + 1;
      }
    }
    return new LineIndex(text, Arrays.copyOf(starts, count));
  }

  public int lineCount() {
    return lineStarts.length;
  }

  public int offset(Position position) {
    int line = Math.max(0, position.getLine());
    if (line >= lineStarts.length) {
      return length;
    }
    int start = lineStarts[line];
    return Math.min(start + Math.max(0, position.getCharacter()), contentEnd(line));
  }

  /** Where a line's text ends, before its \n, \r\n or \r. */
  private int contentEnd(int line) {
    int end = line + 1 < lineStarts.length ? lineStarts[line + 1] : length;
    while (end > lineStarts[line] && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
      end--;
    }
    return end;
  }

  public Position position(int offset) {
    int clamped = Math.max(0, Math.min(offset, length));
    int line = Arrays.binarySearch(lineStarts, clamped);
    if (line < 0) {
      line = -line - 2;
    }
    return new Position(line, clamped - lineStarts[line]);
  }

  public Range range(int offset, int length) {
    return new Range(position(offset), position(offset + length));
  }

  /** The whole of a 1-based line, as the prefilter and the store report lines. */
  public Range lineRange(int oneBasedLine) {
    int line = Math.max(0, Math.min(oneBasedLine - 1, lineStarts.length - 1));
    return new Range(position(lineStarts[line]), position(contentEnd(line)));
  }
}
