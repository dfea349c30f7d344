package dev.racetriage.runner.triage;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.runner.project.TestModule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProjectClassesTest {
  @TempDir Path dir;

  @Test
  void aFieldIsTheProjectsWhenOneOfItsModulesCompiledItsClass() throws Exception {
    Path classes = Files.createDirectories(dir.resolve("target/classes/com/acme"));
    Path tests = Files.createDirectories(dir.resolve("target/test-classes/com/acme"));
    Files.write(classes.resolve("Cache.class"), new byte[] {1});
    Files.write(classes.resolve("Cache$Entry.class"), new byte[] {1});
    Files.write(tests.resolve("CacheTest$Worker.class"), new byte[] {1});
    // a multi-release build's Java 11 class (jsoup's HttpClientExecutor)
    Path java11 = Files.createDirectories(dir.resolve("target/classes/META-INF/versions/11/com/acme"));
    Files.write(java11.resolve("HttpExecutor.class"), new byte[] {1});
    ProjectClasses own = new ProjectClasses(List.of(new TestModule(dir, dir.resolve("target/classes"),
        dir.resolve("target/test-classes"), List.of())));

    assertTrue(own.owns("com.acme.Cache.hash"));
    assertTrue(own.owns("com.acme.Cache$Entry.value"));
    assertTrue(own.owns("com.acme.Cache.slots[]"));
    assertTrue(own.owns("com.acme.CacheTest$Worker.done"));
    assertTrue(own.owns("com.acme.HttpExecutor.client"));
    assertFalse(own.owns("org.eclipse.jetty.server.AbstractConnector._shutdown"));
    assertFalse(own.owns("org.eclipse.jetty.server.AbstractConnector._acceptors[]"));
  }
}
