package dev.racetriage.dashboard;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Tries the address before Javalin does: when Jetty fails to bind, Javalin logs an ERROR with a stack trace before
 * racetriage can say in one line what to do. Binding a plain socket first (with SO_REUSEADDR, as Jetty does, so a
 * port in TIME_WAIT still counts as free) catches the usual case — another dashboard on the port. Another process
 * may still take the port between this probe and the real bind; that rare race keeps Javalin's log line.
 */
final class PortProbe {
  private PortProbe() {}

  /** Throws {@link DashboardStartException} naming the address when {@code host:port} cannot be bound now. */
  static void requireFree(String host, int port) {
    if (port == 0) {
      return; // the OS picks a free port
    }
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(host, port));
    } catch (BindException e) {
      throw DashboardServer.portInUse(host, port, e);
    } catch (IOException e) {
      throw new DashboardStartException(
          "cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
    }
  }
}
