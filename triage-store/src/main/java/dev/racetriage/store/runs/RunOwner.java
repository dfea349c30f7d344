package dev.racetriage.store.runs;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * The process that owns a run: its pid, the host it runs on, and when it started. The start time tells the original
 * process from a later one that was given the same pid; it is null when the OS does not report it.
 */
public record RunOwner(long pid, String host, Instant processStartedAt) {
  private static final String HOST = localHostName();

  /** This process. */
  public static RunOwner current() {
    return of(ProcessHandle.current());
  }

  /** {@code process}, which runs on this host. */
  public static RunOwner of(ProcessHandle process) {
    return new RunOwner(process.pid(), HOST, process.info().startInstant().orElse(null));
  }

  /** The name of this host as every racetriage process on it records it. */
  public static String localHost() {
    return HOST;
  }

  /**
   * Whether this owner, on this host, is still running. False when no process has its pid, or when the process with
   * its pid started at another time (the pid was reused). Only meaningful for an owner on {@link #localHost()}.
   */
  public boolean isAliveHere() {
    Optional<ProcessHandle> process = ProcessHandle.of(pid);
    if (process.isEmpty() || !process.get().isAlive()) {
      return false;
    }
    Optional<Instant> started = process.get().info().startInstant();
    // The OS reports start times in clock ticks and the JDK derives the instant from the boot time: allow a second.
    return processStartedAt == null
        || started.isEmpty()
        || Math.abs(started.get().toEpochMilli() - processStartedAt.toEpochMilli()) <= 1_000;
  }

  /**
   * Read from the kernel where possible: {@link InetAddress#getLocalHost()} resolves the name through DNS, which can
   * hang for seconds on a misconfigured machine, and every open of the store needs the name.
   */
  private static String localHostName() {
    try {
      Path kernel = Path.of("/proc/sys/kernel/hostname");
      if (Files.isReadable(kernel)) {
        String name = Files.readString(kernel).strip();
        if (!name.isEmpty()) {
          return name;
        }
      }
    } catch (IOException e) {
      // fall through to the other sources
    }
    String fromEnvironment = System.getenv("COMPUTERNAME");
    if (fromEnvironment != null && !fromEnvironment.isBlank()) {
      return fromEnvironment.toLowerCase(Locale.ROOT);
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "localhost";
    }
  }
}
