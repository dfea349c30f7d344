package dev.racetriage.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.instrument.InstrumentedClassCache;
import dev.racetriage.agent.options.AgentOptionsParser;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which cache directory a run uses: one per agent jar content, mode and jumble fields — a rebuilt agent or another
 * trial configuration never sees classes instrumented for something else — and none with cache=off or without a jar.
 */
class ClassCacheLocationTest {
  @TempDir
  Path tmp;

  private final ByteArrayOutputStream warnings = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(warnings, true, StandardCharsets.UTF_8);

  @Test
  void theDirectoryDependsOnTheAgentJarsContentTheModeAndTheJumbleFields() throws Exception {
    Path jarA = Files.write(tmp.resolve("a.jar"), new byte[] {1, 2, 3});
    Path sameContent = Files.write(tmp.resolve("copy-of-a.jar"), new byte[] {1, 2, 3});
    Path rebuilt = Files.write(tmp.resolve("b.jar"), new byte[] {1, 2, 4});
    String detect = "mode=detect;cache=" + tmp.resolve("cache");
    String jumble = "mode=jumble;heuristic=sc;cache=" + tmp.resolve("cache") + ";field=";

    Path a = dir(detect, jarA);
    assertTrue(Files.isDirectory(a), a.toString());
    assertTrue(a.startsWith(tmp.resolve("cache")), a.toString());
    assertEquals(a, dir(detect + ";out=elsewhere.jsonl;verbose=true", sameContent), "same jar bytes, same cache");
    assertNotEquals(a, dir(detect, rebuilt), "a rebuilt agent");
    Path jumbleX = dir(jumble + "p.C.x", jarA);
    assertNotEquals(a, jumbleX, "another mode");
    assertNotEquals(jumbleX, dir(jumble + "p.C.y", jarA), "other fields under trial (their slots are baked in)");
    assertEquals(jumbleX, dir(jumble + "p.C.x;seed=7", jarA), "the seed changes nothing instrumented");
    for (Path made : new Path[] {a, jumbleX, dir(detect, rebuilt)}) { // what the runner's pruning may delete
      assertTrue(ClassCacheLocation.isIdentity(made.getFileName().toString()), made.toString());
    }
    assertTrue(!ClassCacheLocation.isIdentity("notes") && !ClassCacheLocation.isIdentity("v1-abc"));
    assertEquals("", warnings.toString(StandardCharsets.UTF_8));
  }

  @Test
  void offOrNoJarMeansNoCacheAndAnUnreadableJarIsAWarning() throws Exception {
    Path jar = Files.write(tmp.resolve("a.jar"), new byte[] {1});
    assertNull(ClassCacheLocation.open(AgentOptionsParser.parse("cache=off"), jar.toString(), err));
    assertNull(ClassCacheLocation.open(AgentOptionsParser.parse("cache=" + tmp), null, err));
    assertEquals("", warnings.toString(StandardCharsets.UTF_8));
    assertNull(ClassCacheLocation.open(AgentOptionsParser.parse("cache=" + tmp), tmp.resolve("gone.jar").toString(),
        err));
    assertTrue(warnings.toString(StandardCharsets.UTF_8).contains("cannot read the agent jar"), warnings.toString());
  }

  private Path dir(String options, Path jar) throws Exception {
    InstrumentedClassCache cache = ClassCacheLocation.open(AgentOptionsParser.parse(options), jar.toString(), err);
    return cache.directory().toPath();
  }
}
