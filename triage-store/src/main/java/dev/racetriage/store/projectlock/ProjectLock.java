package dev.racetriage.store.projectlock;

import dev.racetriage.store.ProjectLayout;
import dev.racetriage.store.StoreException;
import dev.racetriage.store.runs.RunOwner;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One triage or daemon per project at a time: an OS lock on {@code <project>/.racetriage/triage.lock}, whose text
 * names the holder (pid, host, command, start) for the message a second process gets.
 *
 * <p>The OS releases the lock when its process ends, however it ends (kill -9 included), so a stale lock of a dead
 * process is simply taken over; its text is then overwritten and reported by {@link #tookOverFrom()}. The file is
 * never deleted: a process waiting on the old file would lock a file no one else can see.
 *
 * <p>The locks are POSIX record locks on Linux, which belong to the process and are dropped when it closes any
 * descriptor of the file. So a process never opens a lock file it already holds: locks held by this JVM are kept in
 * {@link #HELD} and a second acquire is refused from there, without touching the file.
 */
public final class ProjectLock implements AutoCloseable {
  public static final String FILE = "triage.lock";
  private static final Duration POLL = Duration.ofMillis(250);
  /** Lock files held by this JVM, by real path. Guarded by itself. */
  private static final Map<Path, ProjectLock> HELD = new HashMap<>();

  private final Path file;
  private final Path projectDir;
  private final FileChannel channel;
  private final FileLock lock;
  private final LockHolder holder;
  private final LockHolder previous;

  private ProjectLock(Path file, Path projectDir, FileChannel channel, FileLock lock, LockHolder holder,
      LockHolder previous) {
    this.file = file;
    this.projectDir = projectDir;
    this.channel = channel;
    this.lock = lock;
    this.holder = holder;
    this.previous = previous;
  }

  /** {@code <project>/.racetriage/triage.lock}. */
  public static Path file(Path projectDir) {
    return ProjectLayout.directory(projectDir).resolve(FILE);
  }

  /**
   * Takes the project's lock for {@code what} ("triage", "daemon") or fails at once.
   *
   * @throws ProjectBusyException if another live process (or another part of this one) holds it
   * @throws StoreException if {@code .racetriage/} or the lock file cannot be created or written
   */
  public static ProjectLock acquire(Path projectDir, String what) {
    Path project = projectDir.toAbsolutePath().normalize();
    Path file = file(project);
    try {
      Files.createDirectories(file.getParent());
      ProjectLayout.ignoreLocalFilesInGit(project);
      Path key = createIfMissing(file).toRealPath();
      synchronized (HELD) {
        ProjectLock inThisJvm = HELD.get(key);
        if (inThisJvm != null) {
          throw new ProjectBusyException(project, what, inThisJvm.holder);
        }
        ProjectLock acquired = tryLock(file, project, what);
        HELD.put(key, acquired);
        return acquired;
      }
    } catch (IOException e) {
      throw new StoreException("cannot take the project lock " + file + " (" + e.getClass().getSimpleName() + ": "
          + e.getMessage() + "). Make " + file.getParent() + " writable.", e);
    }
  }

  /**
   * As {@link #acquire(Path, String)}, but while another process holds the lock, checks again every 250 ms until it
   * is free or {@code wait} has passed (then throws the holder's {@link ProjectBusyException}).
   */
  public static ProjectLock acquire(Path projectDir, String what, Duration wait) throws InterruptedException {
    Instant deadline = Instant.now().plus(wait);
    while (true) {
      try {
        return acquire(projectDir, what);
      } catch (ProjectBusyException busy) {
        Duration left = Duration.between(Instant.now(), deadline);
        if (left.isNegative() || left.isZero()) {
          throw busy;
        }
        Thread.sleep(Math.min(POLL.toMillis(), left.toMillis()));
      }
    }
  }

  private static Path createIfMissing(Path file) throws IOException {
    try {
      Files.createFile(file);
    } catch (java.nio.file.FileAlreadyExistsException e) {
      // the usual case: an earlier run made it
    }
    return file;
  }

  private static ProjectLock tryLock(Path file, Path project, String what) throws IOException {
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        // Locked by other code of this JVM, not through this class. Closing this channel would drop that lock
        // (see the class comment), so it is left open: one descriptor, in a case that should not happen.
        throw new ProjectBusyException(project, what, null);
      }
      if (lock == null) {
        LockHolder holder = LockHolder.parse(read(channel)).orElse(null);
        channel.close(); // safe: this process holds no lock on the file
        throw new ProjectBusyException(project, what, holder);
      }
      LockHolder previous = LockHolder.parse(read(channel)).orElse(null);
      RunOwner self = RunOwner.current();
      LockHolder holder = new LockHolder(self.pid(), self.host(), what, Instant.now());
      channel.truncate(0);
      channel.write(ByteBuffer.wrap(holder.toFileText().getBytes(StandardCharsets.UTF_8)), 0);
      channel.force(false);
      return new ProjectLock(file, project, channel, lock, holder, previous);
    } catch (IOException e) {
      channel.close();
      throw e;
    }
  }

  /** The file's text, read through the channel already open (see the class comment). */
  private static String read(FileChannel channel) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(channel.size(), 64 * 1024));
    channel.read(buffer, 0);
    return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
  }

  public Path file() {
    return file;
  }

  public Path projectDir() {
    return projectDir;
  }

  /** This process, as written in the lock file. */
  public LockHolder holder() {
    return holder;
  }

  /**
   * The process whose text was in the file when this lock was taken: a holder that died without releasing it (the
   * OS dropped its lock), or one that finished normally (its text is cleared on release, so then empty).
   */
  public Optional<LockHolder> tookOverFrom() {
    return Optional.ofNullable(previous);
  }

  /** Releases the lock and clears the holder's text; the file stays (see the class comment). */
  @Override
  public void close() {
    synchronized (HELD) {
      if (!channel.isOpen()) {
        return;
      }
      HELD.values().remove(this);
      try {
        channel.truncate(0);
        lock.release();
      } catch (IOException e) {
        // Closing the channel below releases the lock anyway; stale text is overwritten by the next holder.
      } finally {
        try {
          channel.close();
        } catch (IOException ignored) {
          // nothing more to release
        }
      }
    }
  }
}
