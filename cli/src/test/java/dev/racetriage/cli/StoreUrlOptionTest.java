package dev.racetriage.cli;

import static dev.racetriage.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.TestEngine;
import dev.racetriage.store.engine.StoreLocation;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --db} with a PostgreSQL URL: refused with a password in it, usable without, one line when unreachable. */
class StoreUrlOptionTest {
  @TempDir Path project;

  @Test
  void aUrlWithAPasswordIsAUsageErrorThatDoesNotRepeatIt() {
    CliRun mark = run("mark", "com.example.A.f", "--trusted-benign", "--note", "n", "--project", project.toString(),
        "--db", "jdbc:postgresql://db:5432/races?user=ci&password=s3cret");
    assertEquals(2, mark.exitCode(), mark.err());
    assertTrue(mark.err().contains("carries a password"), mark.err());
    assertTrue(mark.err().contains("RACETRIAGE_DB_PASSWORD"), mark.err());
    assertFalse(mark.err().contains("s3cret"), mark.err());
    CliRun report = run("report", project.toString(), "--db", "jdbc:mysql://db/races");
    assertEquals(2, report.exitCode(), report.err());
  }

  @Test
  void anUnreachableServerIsOneLineNamingTheUrl() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    String url = "jdbc:postgresql://127.0.0.1:" + port + "/races?user=ci";
    CliRun report = run("report", project.toString(), "--db", url);
    assertEquals(1, report.exitCode(), report.err());
    assertTrue(report.err().startsWith("racetriage: cannot reach the PostgreSQL server of the triage store " + url),
        report.err());
    assertEquals(1, report.err().strip().lines().count(), report.err());
  }

  @Test
  void aMarkOnTheSharedStoreIsMirroredToTheProjectsFileAsWithAFile() throws Exception {
    TestEngine.serverUrl();
    StoreLocation store = TestEngine.POSTGRESQL.location(project, "team");
    CliRun mark = run("mark", "com.example.A.f", "--trusted-benign", "--note", "lossy by design", "--force",
        "--project", project.toString(), "--db", store.display());
    assertEquals(0, mark.exitCode(), mark.err());
    assertTrue(mark.out().contains("recorded in " + store.display()), mark.out());
    String mirror = Files.readString(project.resolve(".racetriage/trusted-benign.json"));
    assertTrue(mirror.contains("\"field\" : \"com.example.A.f\""), mirror);

    CliRun sync = run("marks", "sync", "--project", project.toString(), "--db", store.display());
    assertEquals(0, sync.exitCode(), sync.err());
    assertTrue(sync.out().contains("1 trusted-benign marks"), sync.out());
  }
}
