package dev.racetriage.lsp.triage;

import java.util.Optional;

/**
 * What the daemon is doing, as the store records it: shown as {@code $/progress}.
 *
 * @param runId identifies the run, so a new run gets a new progress token
 * @param done work items finished in this run
 * @param total work items in this run (queued + running + done)
 * @param current the field being triaged now
 */
public record DaemonActivity(String runId, int done, int total, Optional<String> current) {

  public int percentage() {
    return total <= 0 ? 0 : Math.min(100, done * 100 / total);
  }
}
