package dev.racetriage.runner.fork;

import dev.racetriage.agent.ClassCacheLocation;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Keeps the agent's class cache bounded. The agent keeps one directory per identity (its jar, its mode, the fields a
 * trial jumbles: their slots are baked into the code), each holding every class it instrumented, and never deletes
 * one: a triage of 50 races adds 50 directories of the project's classes, and every rebuilt agent a new set (one
 * developer machine had 1,539 directories, 2.5 GB). The agent marks a directory's last use (its modification time)
 * each time a JVM opens it; {@link #prune} deletes the directories no JVM opened for {@link #MAX_AGE}, and the least
 * recently used beyond {@link #KEEP}; only the agent's identity directories ({@link ClassCacheLocation#isIdentity}) are
 * touched. A directory in use by another JVM can only lose entries it will miss and store
 * again: every entry is verified against the class file on lookup.
 */
public final class ClassCacheJanitor {
  /** Directories no JVM has opened for this long are deleted. */
  public static final Duration MAX_AGE = Duration.ofDays(14);
  /** At most this many directories are kept (the most recently used). */
  public static final int KEEP = 256;

  private ClassCacheJanitor() {
  }

  /** The agent's default cache root ({@link ClassCacheLocation#defaultRoot}), where this process's JVMs put it. */
  public static Optional<Path> defaultRoot() {
    java.io.File root = ClassCacheLocation.defaultRoot();
    return root == null ? Optional.empty() : Optional.of(root.toPath());
  }

  /** {@link #prune(Path, Instant, Duration, int)} in a daemon thread of low priority: a triage does not wait for it. */
  public static void pruneInBackground(Optional<Path> root) {
    if (root.isEmpty()) {
      return;
    }
    Thread t = new Thread(() -> prune(root.get(), Instant.now(), MAX_AGE, KEEP), "racetriage-class-cache-janitor");
    t.setDaemon(true);
    t.setPriority(Thread.MIN_PRIORITY);
    t.start();
  }

  /**
   * Deletes the identity directories under {@code root} last used before {@code now - maxAge}, and the least recently
   * used beyond {@code keep}; returns how many it deleted. Failures (a file another process holds or removed, a
   * read-only directory) leave what could not be deleted for the next time.
   */
  public static int prune(Path root, Instant now, Duration maxAge, int keep) {
    List<Path> dirs = new ArrayList<>();
    try (DirectoryStream<Path> children = Files.newDirectoryStream(root)) {
      for (Path child : children) {
        if (ClassCacheLocation.isIdentity(child.getFileName().toString()) && Files.isDirectory(child)) {
          dirs.add(child);
        }
      }
    } catch (IOException | RuntimeException e) {
      return 0; // no cache yet, or unreadable: nothing to do
    }
    List<Used> used = new ArrayList<>();
    for (Path d : dirs) {
      try {
        used.add(new Used(d, Files.getLastModifiedTime(d).toInstant()));
      } catch (IOException e) {
        // removed meanwhile
      }
    }
    used.sort(Comparator.comparing(Used::at).reversed());
    Instant cutoff = now.minus(maxAge);
    int deleted = 0;
    for (int i = 0; i < used.size(); i++) {
      Used u = used.get(i);
      if ((i >= keep || u.at().isBefore(cutoff)) && delete(u.dir())) {
        deleted++;
      }
    }
    return deleted;
  }

  private record Used(Path dir, Instant at) {}

  /** Deletes the directory's files (entries and temporary files: the agent writes nothing deeper) and then it. */
  private static boolean delete(Path dir) {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path f : files) {
        if (Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          Files.deleteIfExists(f);
        }
      }
    } catch (IOException | RuntimeException e) {
      return false;
    }
    try {
      return Files.deleteIfExists(dir);
    } catch (IOException e) {
      return false; // not empty (something else put there) or gone
    }
  }
}
