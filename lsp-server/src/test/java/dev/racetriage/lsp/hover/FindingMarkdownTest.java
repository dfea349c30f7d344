package dev.racetriage.lsp.hover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.lsp.findings.FieldFinding;
import dev.racetriage.lsp.findings.FieldStatus;
import dev.racetriage.lsp.findings.HeuristicRow;
import dev.racetriage.lsp.findings.VerdictEvidence;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Test output is text: it must not format, link or break out of its code block in the hover. */
class FindingMarkdownTest {

  private static FieldFinding destructive(String summary, String failure) {
    return new FieldFinding("p.C$In.f", FieldStatus.DESTRUCTIVE, "destructive", summary, List.of("note: a|b <img>"),
        1.0, List.of(), new VerdictEvidence(List.of(new HeuristicRow("oldest-but-different", 3, 1, 9, 1 / 3.0, 0.25, 12.5)),
            Optional.of(failure), Optional.empty(), Optional.empty(), false));
  }

  @Test
  void textFromTestsIsEscaped() {
    String md = FindingMarkdown.render(destructive("*bold* [link](http://x) <script>", "boom ``` `x`"));
    assertTrue(md.contains("\\*bold\\* \\[link](http://x) &lt;script>"), md);
    assertTrue(md.contains("- note: a\\|b &lt;img>"), md);
    assertFalse(md.contains("boom ```"), "a fence inside the trace cannot close the code block: " + md);
    assertTrue(md.contains("| oldest-but-different | 3 | 1 | 33% | 9 | 25.0% | 13 |"), md);
    assertTrue(md.indexOf("| heuristic |") < md.indexOf("Details:"), "the evidence facts come after the table: " + md);
    assertTrue(md.contains("_oldest-but-different_: the oldest one that differs"), "the heuristics explained: " + md);
  }

  @Test
  void longTracesAreCutInTheHover() {
    String trace = IntStream.range(0, 100).mapToObj(i -> "\tat p.C.m" + i + "(C.java:" + i + ")")
        .collect(Collectors.joining("\n", "java.lang.IllegalStateException: broken\n", ""));
    String md = FindingMarkdown.render(destructive("", trace));
    assertTrue(md.contains("at p.C.m23(C.java:23)"), md);
    assertFalse(md.contains("at p.C.m24(C.java:24)"), md);
    assertTrue(md.contains("… 76 more lines"), md);
    assertEquals("java.lang.IllegalStateException: broken\n\tat p.C.m0(C.java:0)\n\t… (99 more lines in the hover)",
        dev.racetriage.lsp.diagnostics.DiagnosticFactory.head(trace));
  }
}
