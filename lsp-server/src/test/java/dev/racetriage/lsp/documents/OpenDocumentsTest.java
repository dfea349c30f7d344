package dev.racetriage.lsp.documents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.junit.jupiter.api.Test;

class OpenDocumentsTest {
  private static TextDocumentContentChangeEvent edit(int l1, int c1, int l2, int c2, String text) {
    return new TextDocumentContentChangeEvent(new Range(new Position(l1, c1), new Position(l2, c2)), text);
  }

  @Test
  void incrementalChangesApplyInOrderEachOnTheResultOfThePrevious() {
    OpenDocuments documents = new OpenDocuments();
    documents.open("file:///w/A.java", 1, "class A {\n  int x;\n}\n");
    DocumentSnapshot changed = documents.change("file:///w/A.java", 2, List.of(
        edit(1, 2, 1, 5, "long"),          // int -> long
        edit(1, 7, 1, 8, "y"),             // x -> y, on the text after the first edit
        edit(2, 1, 2, 1, " // end"))).orElseThrow();
    assertEquals("class A {\n  long y;\n} // end\n", changed.text());
    assertEquals(2, changed.version());
  }

  @Test
  void positionsBeyondTheTextAreClampedAndCrLfCountsAsOneBreak() {
    String text = "a\r\nbc\r\n";
    LineIndex lines = LineIndex.of(text);
    assertEquals(3, lines.lineCount());
    assertEquals(3, lines.offset(new Position(1, 0)));
    assertEquals(5, lines.offset(new Position(1, 99)), "clamped to the end of line 1 (before its break)");
    assertEquals(text.length(), lines.offset(new Position(40, 0)));
    assertEquals(new Position(1, 1), lines.position(4));
    assertEquals("a\r\nXbc\r\n", OpenDocuments.apply(text, List.of(edit(1, 0, 1, 0, "X"))));
  }

  @Test
  void changesToUnopenedDocumentsAreRefusedAndSnapshotsKnowWhetherTheyAreCurrent() {
    OpenDocuments documents = new OpenDocuments();
    assertTrue(documents.change("file:///w/B.java", 2, List.of()).isEmpty());
    DocumentSnapshot first = documents.open("file:///w/B.java", 1, "class B {}");
    assertTrue(documents.isCurrent(first));
    documents.change("file:///w/B.java", 2, List.of(new TextDocumentContentChangeEvent("class B { }")));
    assertFalse(documents.isCurrent(first));
    assertTrue(first.isJava());
    assertFalse(documents.open("untitled:Untitled-1", 1, "x").isJava());
  }
}
