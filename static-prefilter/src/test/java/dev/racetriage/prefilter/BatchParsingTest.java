package dev.racetriage.prefilter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.racetriage.prefilter.facts.FileFacts;
import dev.racetriage.prefilter.parse.Classpath;
import dev.racetriage.prefilter.parse.JavaParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A large project is parsed in several JDT batches at once; the facts must not depend on how it was split. */
class BatchParsingTest {

  @TempDir Path dir;

  @Test
  void severalBatchesGiveTheFactsOfOneBatch() throws IOException {
    List<Path> files = chainOfClasses(3 * JavaParser.MIN_BATCH_FILES);
    List<Path> roots = List.of(dir.resolve("src/main/java"));
    Map<String, FileFacts> oneBatch = facts(new JavaParser(roots, Classpath.given(List.of()), 1), files);
    Map<String, FileFacts> threeBatches = facts(new JavaParser(roots, Classpath.given(List.of()), 3), files);
    assertEquals(files.size(), oneBatch.size());
    assertEquals(oneBatch, threeBatches);
    // a class of the last batch sees, through bindings, the field of a class in the first batch
    String last = files.get(files.size() - 1).toString();
    assertEquals(true, threeBatches.get(last).accesses().stream()
        .anyMatch(a -> a.fieldKey().equals("chain.C0.count") && a.viaBinding()), threeBatches.get(last).toString());
    Analysis analysis = Prefilter.open(dir, Classpath.given(List.of())).scan();
    Expect.candidate(analysis, "chain.C0.count");
    assertEquals(files.size(), analysis.files());
  }

  private static Map<String, FileFacts> facts(JavaParser parser, List<Path> files) {
    Map<String, FileFacts> facts = new ConcurrentHashMap<>();
    parser.parseAll(files, (path, unit) -> facts.put(path.toString(), FileAnalyzer.analyze(path.toString(), unit)));
    return new TreeMap<>(facts);
  }

  /** C0 has a racy counter; every Ci bumps it from a pool task and refers to C(i-1). */
  private List<Path> chainOfClasses(int count) throws IOException {
    Path pkg = Files.createDirectories(dir.resolve("src/main/java/chain"));
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String previous = i == 0 ? "" : "  final C" + (i - 1) + " previous = new C" + (i - 1) + "();\n";
      String source = "package chain;\n\npublic class C" + i + " {\n  static int count;\n" + previous
          + "  public void start(java.util.concurrent.ExecutorService pool) {\n"
          + "    pool.submit(() -> C0.count++);\n  }\n}\n";
      files.add(Files.writeString(pkg.resolve("C" + i + ".java"), source));
    }
    return files;
  }
}
