package dev.racetriage.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Instrumented methods that hold a monitor stay compilable by HotSpot's JIT. HotSpot compiles a method with
 * {@code monitorenter} only if a bytecode analysis (GenerateOopMap) finds its monitors balanced on every path; an
 * instruction that can throw inside a locked region counts as balanced only if a catch-all handler covers it. The
 * agent's monitor hook calls were guarded by a {@code catch (Throwable)} handler, which that analysis does not treat
 * as catch-all: every method with a {@code synchronized} block — the application's and {@code ConcurrentHashMap}'s
 * alike — was then refused by both compilers and ran interpreted for ever (a hot loop with a synchronized block
 * 38x slower than without the agent instead of 10x). {@code -Xbatch} makes each compilation finish before the
 * program goes on, so the log is complete when it exits.
 */
class JitCompilableIT {
  private static final String FIXTURE = "dev.racetriage.fixtures.jit.SynchronizedHotMethods";

  @Test
  void methodsWithMonitorsAreCompiledAtTheTopTier() throws Exception {
    AgentJvm.Result result = AgentJvm.run("jit-compilable", List.of("-Xbatch", "-XX:+PrintCompilation"),
        "mode=detect", AgentJvm.TEST_CLASSPATH, FIXTURE, "60000");
    assertEquals(0, result.exitCode(), result.describe());
    assertTrue(result.stdout().contains("sum "), result.describe());
    List<String> skipped = result.stdout().lines().filter(line -> line.contains("COMPILE SKIPPED"))
        .filter(line -> line.contains("SynchronizedHotMethods::") || line.contains("ConcurrentHashMap::"))
        .collect(Collectors.toList());
    assertEquals(List.of(), skipped, "methods the JIT refused under the agent");
    for (String method : List.of("SynchronizedHotMethods::block", "SynchronizedHotMethods::method",
        "java.util.concurrent.ConcurrentHashMap::putVal")) {
      assertTrue(result.stdout().lines().anyMatch(line -> line.contains(" 4 ") && line.contains(method)
              && !line.contains("COMPILE SKIPPED")),
          method + " was not compiled by C2 (tier 4):\n" + result.stdout().lines()
              .filter(line -> line.contains(method)).collect(Collectors.joining("\n")));
    }
    assertEquals("ok", result.report().status(), result.report().lines().toString());
  }
}
