package dev.racetriage.lsp.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.lsp4j.jsonrpc.CancelChecker;
import org.junit.jupiter.api.Test;

/** A parse stops when its {@link CancelChecker} says so, inside JDT's conversion of a big file, not after it. */
class JavaSyntaxTest {
  private static String manyTypes(int count) {
    StringBuilder text = new StringBuilder("package demo;\n");
    for (int i = 0; i < count; i++) {
      text.append("class T").append(i).append(" { int f; void m() { f++; } }\n");
    }
    return text.toString();
  }

  /** Cancelled from the {@code n}-th look on: counts how often the parse looked. */
  private static final class CancelledAfter implements CancelChecker {
    final AtomicInteger looks = new AtomicInteger();
    private final int n;

    CancelledAfter(int n) {
      this.n = n;
    }

    @Override
    public void checkCanceled() {
      if (looks.incrementAndGet() >= n) {
        throw new CancellationException("superseded");
      }
    }
  }

  @Test
  void aParseThatIsCancelledPartWayStopsWithTheCallersCancellation() {
    String text = manyTypes(2_000);
    CancelledAfter cancel = new CancelledAfter(50);
    CancellationException stopped = assertThrows(CancellationException.class, () -> JavaSyntax.parse(text, cancel));
    assertEquals("superseded", stopped.getMessage());
    assertTrue(cancel.looks.get() >= 50, "the parse looked again while it converted the file");

    CancelledAfter declarations = new CancelledAfter(50);
    assertThrows(CancellationException.class, () -> JavaSyntax.declarations(text, declarations));
  }

  @Test
  void aParseThatIsNeverCancelledIsWhole() {
    CancelledAfter never = new CancelledAfter(Integer.MAX_VALUE);
    assertEquals(2_000, JavaSyntax.parse(manyTypes(2_000), never).types().size());
  }
}
