package dev.racetriage.store;

import dev.racetriage.store.projectlock.ProjectBusyException;
import dev.racetriage.store.projectlock.ProjectLock;
import java.nio.file.Path;

/**
 * A child JVM of {@link ProjectLockTest}: takes the project lock for {@code args[1]}, prints {@link #LOCKED}, and
 * holds it until its stdin is closed (then releases it and exits 0) or it is killed. If the lock is busy it prints
 * the message and exits 3.
 */
public final class ProjectLockHolder {
  static final String LOCKED = "locked";
  static final int BUSY = 3;

  public static void main(String[] args) throws Exception {
    ProjectLock lock;
    try {
      lock = ProjectLock.acquire(Path.of(args[0]), args[1]);
    } catch (ProjectBusyException e) {
      System.out.println(e.getMessage());
      System.exit(BUSY);
      return;
    }
    try (lock) {
      System.out.println(LOCKED);
      System.out.flush();
      while (System.in.read() != -1) {
        // hold until stdin is closed
      }
    }
  }
}
