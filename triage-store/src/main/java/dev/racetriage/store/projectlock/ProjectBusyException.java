package dev.racetriage.store.projectlock;

import dev.racetriage.store.StoreException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Another live process holds the project's lock: only one triage or daemon may work on a project at a time. The
 * message names the holder (from the lock file) and what to do; a command reports it and exits with status 2.
 */
public final class ProjectBusyException extends StoreException {
  private final Path projectDir;
  private final transient LockHolder holder;

  ProjectBusyException(Path projectDir, String what, LockHolder holder) {
    super("another " + (holder == null ? what + " (a racetriage process that has not recorded its PID yet)"
        : holder.describe()) + " is running on this project (" + projectDir + "); wait for it to finish or stop it");
    this.projectDir = projectDir;
    this.holder = holder;
  }

  public Path projectDir() {
    return projectDir;
  }

  /** The holder as its lock file names it; empty if it had not written it yet. */
  public Optional<LockHolder> holder() {
    return Optional.ofNullable(holder);
  }
}
