package dev.racetriage.lsp.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.prefilter.parse.Classpath;
import dev.racetriage.prefilter.parse.ClasspathStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The class path is asked of Maven once per pom fingerprint; a changed pom or a vanished jar asks again. */
class MavenClasspathCacheTest {
  @TempDir Path dir;

  @Test
  void asksMavenOncePerPomFingerprint() throws Exception {
    Path root = Files.createDirectories(dir.resolve("project"));
    Files.writeString(root.resolve("pom.xml"), "<project><artifactId>a</artifactId></project>");
    Files.createDirectories(root.resolve("core"));
    Files.writeString(root.resolve("core/pom.xml"), "<project><artifactId>core</artifactId></project>");
    Path jar = Files.writeString(dir.resolve("lib.jar"), "jar");
    AtomicInteger asked = new AtomicInteger();
    MavenClasspathCache cache = new MavenClasspathCache(dir.resolve("cache"), r -> {
      asked.incrementAndGet();
      return new Classpath(List.of(jar), ClasspathStatus.MAVEN, "maven");
    });

    assertEquals(List.of(jar), cache.resolve(root).entries());
    Classpath again = cache.resolve(root);
    assertEquals(List.of(jar), again.entries());
    assertEquals(ClasspathStatus.MAVEN, again.status());
    assertTrue(again.detail().contains("cached"), again.detail());
    assertEquals(1, asked.get(), "the second start does not run Maven");

    Files.writeString(root.resolve("core/pom.xml"), "<project><artifactId>core</artifactId><version>2</version></project>");
    cache.resolve(root);
    assertEquals(2, asked.get(), "a module's pom changed");

    Files.delete(jar);
    cache.resolve(root);
    assertEquals(3, asked.get(), "a jar of the cached class path is gone");
  }

  @Test
  void aFailedMavenCallIsNotRemembered() throws Exception {
    Path root = Files.createDirectories(dir.resolve("p"));
    Files.writeString(root.resolve("pom.xml"), "<project/>");
    AtomicInteger asked = new AtomicInteger();
    MavenClasspathCache cache = new MavenClasspathCache(dir.resolve("cache"), r -> {
      asked.incrementAndGet();
      return Classpath.none("offline");
    });
    cache.resolve(root);
    cache.resolve(root);
    assertEquals(2, asked.get());
  }
}
