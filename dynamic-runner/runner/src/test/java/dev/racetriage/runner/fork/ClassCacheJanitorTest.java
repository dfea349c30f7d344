package dev.racetriage.runner.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's class cache on disk stays bounded: stale and surplus identity directories go, nothing else does. */
class ClassCacheJanitorTest {
  @TempDir Path root;
  private final Instant now = Instant.parse("2026-11-27T12:00:00Z");

  private Path identity(String name, Duration ago, int entries) throws Exception {
    Path dir = Files.createDirectories(root.resolve(name));
    for (int i = 0; i < entries; i++) {
      Files.write(dir.resolve("A-" + i + "-99.rtc"), new byte[] {1, 2, 3});
    }
    Files.setLastModifiedTime(dir, FileTime.from(now.minus(ago)));
    return dir;
  }

  @Test
  void deletesDirectoriesUnusedForTooLongAndTheLeastRecentlyUsedBeyondTheLimit() throws Exception {
    Path stale = identity("v1-326b9dbf61-e4f64472b4", Duration.ofDays(30), 3);
    Path recent1 = identity("v1-aaaa-0001", Duration.ofHours(1), 2);
    Path recent2 = identity("v1-aaaa-0002", Duration.ofHours(2), 2);
    Path recent3 = identity("v1-aaaa-0003", Duration.ofHours(3), 2);
    Path foreign = Files.createDirectories(root.resolve("notes"));
    Files.setLastModifiedTime(foreign, FileTime.from(now.minus(Duration.ofDays(90))));
    Path strayFile = Files.writeString(root.resolve("README"), "mine");

    assertEquals(2, ClassCacheJanitor.prune(root, now, Duration.ofDays(14), 2));

    assertFalse(Files.exists(stale), "unused for 30 days");
    assertFalse(Files.exists(recent3), "the least recently used beyond 2");
    assertTrue(Files.isDirectory(recent1) && Files.isDirectory(recent2));
    assertEquals(2, recent1.toFile().list().length, "kept directories keep their entries");
    assertTrue(Files.isDirectory(foreign), "only the agent's identity directories are touched");
    assertTrue(Files.exists(strayFile));
    assertEquals(0, ClassCacheJanitor.prune(root, now, Duration.ofDays(14), 2), "nothing more to do");
  }

  @Test
  void aMissingRootIsNothingToDo() {
    assertEquals(0, ClassCacheJanitor.prune(root.resolve("absent"), now, Duration.ofDays(14), 2));
  }

  @Test
  void theDefaultRootIsTheAgentsOne() {
    assertEquals(Optional.ofNullable(dev.racetriage.agent.ClassCacheLocation.defaultRoot()).map(java.io.File::toPath),
        ClassCacheJanitor.defaultRoot());
    assertTrue(ClassCacheJanitor.defaultRoot().orElseThrow().endsWith(Path.of("racetriage", "agent-classes")));
  }
}
