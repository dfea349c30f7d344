import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a synthetic Maven-layout project for the prefilter benchmark: {@code files} classes in 10 packages, each
 * with racy, synchronized, Lock-guarded and executor-driven fields and calls into other classes, plus one large class
 * of about {@code bigLines} lines (the file the editor changes).
 */
final class SyntheticProject {

  private SyntheticProject() {}

  static Path write(Path root, int files, int bigLines) throws IOException {
    Path src = root.resolve("src/main/java");
    for (int i = 0; i < files - 1; i++) {
      write(src, "bench.p" + (i % 10), "Gen" + i, body(i, files, 6));
    }
    write(src, "bench.big", "Big", body(files, files, groupsFor(bigLines)));
    return src.resolve("bench/big/Big.java");
  }

  /** Enough groups of fields and methods to reach {@code lines}. */
  private static int groupsFor(int lines) {
    int header = lineCount(body(0, 2, 0));
    int perGroup = lineCount(body(0, 2, 1)) - header;
    return Math.max(1, (lines - header + perGroup - 1) / perGroup);
  }

  private static int lineCount(String text) {
    return (int) text.chars().filter(c -> c == '\n').count() + 2;
  }

  private static void write(Path src, String pkg, String name, String body) throws IOException {
    Path file = src.resolve(pkg.replace('.', '/')).resolve(name + ".java");
    Files.createDirectories(file.getParent());
    Files.writeString(file, "package " + pkg + ";\n\n" + body.replace("CLASS", name));
  }

  private static String body(int index, int files, int groups) {
    StringBuilder s = new StringBuilder();
    s.append("import java.util.concurrent.ExecutorService;\n");
    s.append("import java.util.concurrent.locks.ReentrantLock;\n\n");
    s.append("public class CLASS {\n");
    s.append("  private final Object lock = new Object();\n");
    s.append("  private final ReentrantLock rl = new ReentrantLock();\n");
    for (int g = 0; g < groups; g++) {
      int peer = (index * 7 + g) % (files - 1);
      s.append("  private int racy").append(g).append(";\n");
      s.append("  private long guarded").append(g).append(";\n");
      s.append("  private boolean flag").append(g).append(";\n");
      s.append("  public synchronized void put").append(g).append("(int v) { guarded").append(g)
          .append(" += v; racy").append(g).append(" = v; }\n");
      s.append("  public int get").append(g).append("() { return racy").append(g).append("; }\n");
      s.append("  public long guarded").append(g).append("() { synchronized (this) { return guarded").append(g)
          .append("; } }\n");
      s.append("  public void spin").append(g).append("() { while (!flag").append(g)
          .append(") { Thread.onSpinWait(); } }\n");
      s.append("  public void release").append(g).append("() { flag").append(g).append(" = true; }\n");
      s.append("  public void work").append(g).append("(ExecutorService pool) {\n");
      s.append("    pool.submit(() -> {\n");
      s.append("      rl.lock();\n");
      s.append("      try {\n");
      s.append("        racy").append(g).append("++;\n");
      s.append("      } finally {\n");
      s.append("        rl.unlock();\n");
      s.append("      }\n");
      s.append("    });\n");
      s.append("    pool.submit(() -> new bench.p").append(peer % 10).append(".Gen").append(peer).append("().put0(")
          .append(g).append("));\n");
      s.append("  }\n");
      s.append("  // group ").append(g).append(" ends\n");
    }
    s.append("}\n");
    return s.toString();
  }
}
