package dev.racetriage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.projectlock.LockHolder;
import dev.racetriage.store.projectlock.ProjectBusyException;
import dev.racetriage.store.projectlock.ProjectLock;
import dev.racetriage.store.runs.RunOwner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One triage or daemon per project: a second one, in another JVM or this one, is refused with the holder's name. */
class ProjectLockTest {
  @TempDir Path project;

  @Test
  void theLockFileNamesItsHolderWhileHeldAndIsClearedOnRelease() throws Exception {
    Path file = project.resolve(".racetriage/triage.lock");
    try (ProjectLock lock = ProjectLock.acquire(project, "triage")) {
      assertEquals(file, lock.file());
      String text = Files.readString(file);
      assertTrue(text.startsWith("pid=" + ProcessHandle.current().pid() + "\nhost=" + RunOwner.localHost()
          + "\ncommand=triage\nstarted="), text);
      assertFalse(lock.tookOverFrom().isPresent());
    }
    assertEquals("", Files.readString(file), "a released lock names no holder");
    assertTrue(Files.readString(project.resolve(".racetriage/.gitignore")).contains("triage.lock\n"));
    try (ProjectLock again = ProjectLock.acquire(project, "daemon")) {
      assertFalse(again.tookOverFrom().isPresent(), "released cleanly: nothing to take over");
    }
  }

  @Test
  void aSecondTriageInAnotherProcessIsRefusedWithTheHoldersPid() throws Exception {
    try (ChildJvm holder = ChildJvm.start(ProjectLockHolder.class, project.resolve("holder.err"),
        project.toString(), "triage")) {
      holder.awaitLine(ProjectLockHolder.LOCKED);
      ProjectBusyException busy =
          assertThrows(ProjectBusyException.class, () -> ProjectLock.acquire(project, "daemon"));
      LockHolder named = busy.holder().orElseThrow();
      assertEquals(holder.pid(), named.pid());
      assertEquals("another triage (PID " + holder.pid() + " on host " + RunOwner.localHost() + ", started at "
          + named.started() + ") is running on this project (" + project.toAbsolutePath().normalize() + "); wait "
          + "for it to finish or stop it", busy.getMessage());
      assertThrows(ProjectBusyException.class,
          () -> ProjectLock.acquire(project, "triage", Duration.ofMillis(300)), "still held after the wait");

      holder.kill(); // kill -9: the OS drops its lock; its text stays in the file
    }
    try (ProjectLock lock = ProjectLock.acquire(project, "triage")) {
      assertEquals("triage", lock.tookOverFrom().orElseThrow().command(), "the dead process's stale lock");
      assertEquals(ProcessHandle.current().pid(), lock.holder().pid());
    }
  }

  @Test
  void aSecondAcquireInThisJvmIsRefusedAndLeavesTheFirstLockHeld() throws Exception {
    try (ProjectLock first = ProjectLock.acquire(project, "daemon")) {
      ProjectBusyException busy =
          assertThrows(ProjectBusyException.class, () -> ProjectLock.acquire(project.resolve("."), "triage"));
      assertEquals(ProcessHandle.current().pid(), busy.holder().orElseThrow().pid());
      assertTrue(busy.getMessage().startsWith("another daemon (PID " + ProcessHandle.current().pid()), busy.getMessage());

      // The refused attempt must not have dropped the OS lock: another process still cannot take it.
      try (ChildJvm other = ChildJvm.start(ProjectLockHolder.class, project.resolve("other.err"),
          project.toString(), "triage")) {
        other.awaitLine("another daemon (PID " + ProcessHandle.current().pid() + " on host " + RunOwner.localHost()
            + ", started at " + first.holder().started() + ") is running on this project ("
            + project.toAbsolutePath().normalize() + "); wait for it to finish or stop it");
        assertEquals(ProjectLockHolder.BUSY, other.awaitExit());
      }
    }
  }

  @Test
  void aWaitingAcquireGetsTheLockWhenTheHolderReleasesIt() throws Exception {
    ExecutorService executor = Executors.newSingleThreadExecutor();
    try (ChildJvm holder = ChildJvm.start(ProjectLockHolder.class, project.resolve("holder.err"),
        project.toString(), "daemon")) {
      holder.awaitLine(ProjectLockHolder.LOCKED);
      Future<ProjectLock> waiting = executor.submit(() -> ProjectLock.acquire(project, "triage", Duration.ofMinutes(5)));
      holder.closeStdin(); // the daemon finishes and releases the lock
      assertEquals(0, holder.awaitExit());
      try (ProjectLock lock = waiting.get()) {
        assertFalse(lock.tookOverFrom().isPresent(), "the daemon released it cleanly");
      }
    } finally {
      executor.shutdownNow();
    }
  }
}
