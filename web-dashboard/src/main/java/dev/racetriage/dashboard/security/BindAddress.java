package dev.racetriage.dashboard.security;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** The address the dashboard listens on, and whether only this machine can reach it. */
public record BindAddress(String host, boolean loopback) {

  /**
   * Resolves {@code host} once at start. A name that does not resolve is a user error with the name in the message;
   * a wildcard address (0.0.0.0, ::) is not loopback: it listens on every interface.
   */
  public static BindAddress of(String host) {
    try {
      InetAddress address = InetAddress.getByName(host);
      return new BindAddress(host, address.isLoopbackAddress());
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(
          "cannot bind the dashboard to '" + host + "': the name does not resolve. Use an IP address such as 127.0.0.1", e);
    }
  }
}
