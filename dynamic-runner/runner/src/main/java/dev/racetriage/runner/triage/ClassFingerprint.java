package dev.racetriage.runner.triage;

import dev.racetriage.runner.project.TestModule;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * A hash of what the tests run: every file of every module's compiled classes and compiled tests (path and content).
 * Two builds with the same fingerprint run the same code, so a trial of one is a trial of the other; any edit that
 * changes a class file changes it. Sources are not hashed: a comment or a blank line changes no trial.
 */
public final class ClassFingerprint {
  private ClassFingerprint() {}

  public static String of(List<TestModule> modules) throws IOException {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JDK has no SHA-256", e);
    }
    for (TestModule module : modules) {
      for (Path dir : List.of(module.classes(), module.testClasses())) {
        if (!Files.isDirectory(dir)) continue;
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
          walk.filter(Files::isRegularFile).sorted().forEach(files::add);
        }
        for (Path file : files) {
          digest.update(dir.relativize(file).toString().getBytes(StandardCharsets.UTF_8));
          digest.update((byte) 0);
          digest.update(Files.readAllBytes(file));
        }
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  /** The agent's identity for trial reuse: a hash of its jar (a rebuilt agent may jumble differently). */
  public static String agentVersion(Path agentJar) throws IOException {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(agentJar)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JDK has no SHA-256", e);
    }
  }
}
