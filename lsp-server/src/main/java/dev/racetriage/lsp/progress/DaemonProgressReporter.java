package dev.racetriage.lsp.progress;

import dev.racetriage.lsp.lifecycle.ClientSupport;
import dev.racetriage.lsp.triage.DaemonActivity;
import java.util.Optional;
import java.util.function.Supplier;
import org.eclipse.lsp4j.ProgressParams;
import org.eclipse.lsp4j.WorkDoneProgressBegin;
import org.eclipse.lsp4j.WorkDoneProgressCreateParams;
import org.eclipse.lsp4j.WorkDoneProgressEnd;
import org.eclipse.lsp4j.WorkDoneProgressReport;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * Mirrors the daemon's run as server-initiated work-done progress ({@code window/workDoneProgress/create}, then
 * {@code $/progress} begin/report/end), for clients that announce {@code window.workDoneProgress}.
 */
public final class DaemonProgressReporter {
  private final Supplier<LanguageClient> client;
  private final Supplier<ClientSupport> support;
  private String token;
  private DaemonActivity last;

  public DaemonProgressReporter(Supplier<LanguageClient> client, Supplier<ClientSupport> support) {
    this.client = client;
    this.support = support;
  }

  public synchronized void update(Optional<DaemonActivity> activity) {
    LanguageClient c = client.get();
    if (c == null || !support.get().workDoneProgress()) {
      return;
    }
    if (activity.isEmpty()) {
      end(c, "racetriage: triage finished");
      return;
    }
    DaemonActivity now = activity.get();
    if (token != null && last != null && !last.runId().equals(now.runId())) {
      end(c, "racetriage: run " + last.runId() + " finished");
    }
    if (token == null) {
      token = "racetriage-daemon-" + now.runId();
      c.createProgress(new WorkDoneProgressCreateParams(Either.forLeft(token)));
      WorkDoneProgressBegin begin = new WorkDoneProgressBegin();
      begin.setTitle("racetriage: triaging races");
      begin.setCancellable(false);
      begin.setMessage(message(now));
      begin.setPercentage(now.percentage());
      c.notifyProgress(new ProgressParams(Either.forLeft(token), Either.forLeft(begin)));
    } else if (!now.equals(last)) {
      WorkDoneProgressReport report = new WorkDoneProgressReport();
      report.setMessage(message(now));
      report.setPercentage(now.percentage());
      c.notifyProgress(new ProgressParams(Either.forLeft(token), Either.forLeft(report)));
    }
    last = now;
  }

  private void end(LanguageClient c, String message) {
    if (token != null) {
      WorkDoneProgressEnd end = new WorkDoneProgressEnd();
      end.setMessage(message);
      c.notifyProgress(new ProgressParams(Either.forLeft(token), Either.forLeft(end)));
      token = null;
      last = null;
    }
  }

  private static String message(DaemonActivity activity) {
    return activity.done() + "/" + activity.total() + activity.current().map(f -> " — " + f).orElse("");
  }
}
