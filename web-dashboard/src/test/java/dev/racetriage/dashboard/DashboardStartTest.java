package dev.racetriage.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What happens when the dashboard starts: a busy port, and the database it is given. */
class DashboardStartTest {
  @TempDir Path temp;

  @Test
  void aBusyPortIsOneMessageWithoutALoggedError() throws IOException {
    try (FixtureProject project = FixtureProject.create(temp, 0);
        ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      ByteArrayOutputStream captured = new ByteArrayOutputStream();
      PrintStream err = System.err;
      DashboardStartException e;
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      try {
        e = assertThrows(DashboardStartException.class, () -> DashboardServer.start(project.store,
            DashboardOptions.defaults().withBind("127.0.0.1").withPort(taken.getLocalPort())));
      } finally {
        System.setErr(err);
      }
      assertTrue(e.getMessage().contains("in use") && e.getMessage().contains("--port"), e.getMessage());
      assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
      String log = captured.toString(StandardCharsets.UTF_8);
      assertEquals("", log, "nothing is logged before racetriage's own message");
    }
  }
}
