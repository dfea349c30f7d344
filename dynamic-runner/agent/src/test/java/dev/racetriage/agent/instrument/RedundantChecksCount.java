package dev.racetriage.agent.instrument;

import dev.racetriage.agent.detect.SiteTable;
import dev.racetriage.agent.runtime.FieldRegistry;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Counts the access hooks the detect-mode instrumenter emits for the classes of a class path, per rule of
 * {@link RedundantChecks} (off, writes cover, reads cover too): what redundant check elimination removes statically.
 * A measuring tool, not a test: {@code java -cp <agent test and main classes, asm> ...RedundantChecksCount
 * <class-path-entry>... [-- <class-name-substring>...]}.
 */
public final class RedundantChecksCount {
  private static final List<String> ACCESS_HOOKS = List.of("readField", "readFields", "writeField", "readStatic", "writeStatic",
      "readElement", "writeElement");

  public static void main(String[] args) throws Exception {
    List<File> path = new ArrayList<>();
    List<String> only = new ArrayList<>();
    boolean filters = false;
    for (String a : args) {
      if (a.equals("--")) {
        filters = true;
      } else if (filters) {
        only.add(a);
      } else {
        path.add(new File(a));
      }
    }
    URL[] urls = new URL[path.size()];
    for (int i = 0; i < urls.length; i++) {
      urls[i] = path.get(i).toURI().toURL();
    }
    ClassLoader loader = new URLClassLoader(urls, RedundantChecksCount.class.getClassLoader());
    Map<String, byte[]> classes = new TreeMap<>();
    for (File f : path) {
      collect(f, classes);
    }
    Map<String, long[]> byClass = new TreeMap<>();
    long[] total = new long[3];
    for (Map.Entry<String, byte[]> e : classes.entrySet()) {
      if (!only.isEmpty() && only.stream().noneMatch(e.getKey()::contains)) {
        continue;
      }
      long[] counts = new long[3];
      for (RedundantChecks.Rule rule : RedundantChecks.Rule.values()) {
        RedundantChecks.rule = rule;
        counts[rule.ordinal()] = hooks(loader, e.getValue());
      }
      byClass.put(e.getKey(), counts);
      for (int i = 0; i < 3; i++) {
        total[i] += counts[i];
      }
    }
    RedundantChecks.rule = RedundantChecks.Rule.WRITES;
    System.out.printf("%-70s %8s %8s %8s%n", "class", "hooks", "writes", "reads");
    byClass.entrySet().stream().filter(e -> e.getValue()[0] != e.getValue()[2])
        .sorted((a, b) -> Long.compare(b.getValue()[0] - b.getValue()[2], a.getValue()[0] - a.getValue()[2]))
        .limit(25)
        .forEach(e -> System.out.printf("%-70s %8d %8d %8d%n", e.getKey(), e.getValue()[0], e.getValue()[1],
            e.getValue()[2]));
    System.out.printf("%-70s %8d %8d %8d%n", "TOTAL (" + byClass.size() + " classes)", total[0], total[1], total[2]);
  }

  /** With -Dverbose=true: per method whose hooks the rule changed, the hook calls in order. */
  private static final boolean VERBOSE = Boolean.getBoolean("verbose");

  private static long hooks(ClassLoader loader, byte[] original) {
    ClassInstrumenter detect = new ClassInstrumenter(new SiteTable(), new FieldRegistry());
    ClassInstrumenter.Outcome out = detect.instrument(ClassKind.APPLICATION, loader, original);
    if (out == null || out.bytes() == null) {
      System.err.println("not instrumented: " + (out == null ? null : out));
      return 0;
    }
    ClassNode node = new ClassNode();
    new ClassReader(out.bytes()).accept(node, 0);
    long n = 0;
    for (MethodNode m : node.methods) {
      List<String> calls = new ArrayList<>();
      for (AbstractInsnNode insn : m.instructions) {
        if (insn instanceof MethodInsnNode call && HookMethod.isOwner(call.owner)
            && ACCESS_HOOKS.contains(call.name)) {
          n++;
          calls.add(call.name);
        }
      }
      if (VERBOSE) {
        System.out.println(RedundantChecks.rule + " " + node.name + "." + m.name + " " + calls);
      }
    }
    return n;
  }

  private static void collect(File f, Map<String, byte[]> into) throws IOException {
    if (f.isDirectory()) {
      try (var files = Files.walk(f.toPath())) {
        for (Path p : (Iterable<Path>) files::iterator) {
          if (p.toString().endsWith(".class")) {
            into.put(f.toPath().relativize(p).toString().replace(File.separatorChar, '/'), Files.readAllBytes(p));
          }
        }
      }
    } else if (f.getName().endsWith(".jar")) {
      try (JarFile jar = new JarFile(f)) {
        Enumeration<JarEntry> entries = jar.entries();
        while (entries.hasMoreElements()) {
          JarEntry e = entries.nextElement();
          if (e.getName().endsWith(".class") && !e.getName().startsWith("META-INF")) {
            try (InputStream in = jar.getInputStream(e)) {
              into.put(e.getName(), in.readAllBytes());
            }
          }
        }
      }
    }
  }
}
