package dev.racetriage.cli;

import dev.racetriage.runner.triage.TriageProgress;
import java.io.PrintWriter;

/**
 * Progress on stderr: a bar redrawn in place on a terminal, plain lines otherwise (CI logs, pipes), so that the
 * report on stdout stays clean.
 */
final class TerminalProgress implements TriageProgress {
  private static final int BAR = 24;

  private final PrintWriter err;
  private final boolean interactive;
  private String phase = "";

  TerminalProgress(PrintWriter err, boolean interactive) {
    this.err = err;
    this.interactive = interactive;
  }

  @Override
  public synchronized void phase(String name, String detail) {
    finishLine();
    phase = name;
    if (interactive) {
      err.print("\r" + name + ": " + detail);
    } else {
      err.println(name + ": " + detail);
    }
    err.flush();
  }

  @Override
  public synchronized void step(int done, int total, String detail) {
    if (interactive) {
      int filled = total == 0 ? BAR : Math.min(BAR, done * BAR / total);
      err.print("\r\033[K" + phase + " [" + "#".repeat(filled) + " ".repeat(BAR - filled) + "] " + done + "/" + total + " " + detail);
    } else {
      err.println(phase + ": " + done + "/" + total + " " + detail);
    }
    err.flush();
  }

  synchronized void finishLine() {
    if (interactive && !phase.isEmpty()) {
      err.println();
    }
  }
}
