package dev.racetriage.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worker's and --distribute's usage errors: one line, exit 2, before any build. */
class WorkerCommandTest {
  @TempDir Path dir;

  @Test
  void aWorkerNeedsAProjectAndADatabase() throws Exception {
    CliRun noDb = CliRun.run("worker", dir.toString());
    assertEquals(2, noDb.exitCode());
    assertTrue(noDb.err().contains("--db"), noDb.err());

    CliRun notAProject = CliRun.run("worker", dir.toString(), "--db", dir.resolve("t.db").toString());
    assertEquals(2, notAProject.exitCode());
    assertTrue(notAProject.err().contains("pom.xml"), notAProject.err());
    assertTrue(!Files.exists(dir.resolve("t.db")), "nothing written for a command that cannot run");
  }

  @Test
  void leasesAreCheckedBeforeAnyWork() throws Exception {
    Files.writeString(dir.resolve("pom.xml"), "<project/>");
    CliRun shortLease = CliRun.run("worker", dir.toString(), "--db", dir.resolve("t.db").toString(), "--lease", "1s");
    assertEquals(2, shortLease.exitCode());
    assertTrue(shortLease.err().contains("--lease must be at least 3s"), shortLease.err());

    CliRun leaseAlone = CliRun.run("triage", dir.toString(), "--lease", "30s");
    assertEquals(2, leaseAlone.exitCode());
    assertTrue(leaseAlone.err().contains("--lease only applies with --distribute"), leaseAlone.err());

    CliRun jobs = CliRun.run("worker", dir.toString(), "--db", dir.resolve("t.db").toString(), "--jobs", "0");
    assertEquals(2, jobs.exitCode());
    assertTrue(jobs.err().contains("--jobs must be at least 1"), jobs.err());
  }
}
