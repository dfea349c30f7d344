package dev.racetriage.lsp.progress;

import dev.racetriage.lsp.lifecycle.ClientSupport;
import java.util.UUID;
import java.util.function.Supplier;
import org.eclipse.lsp4j.ProgressParams;
import org.eclipse.lsp4j.WorkDoneProgressBegin;
import org.eclipse.lsp4j.WorkDoneProgressCreateParams;
import org.eclipse.lsp4j.WorkDoneProgressEnd;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * Server-initiated work-done progress for the server's own long jobs (the first scan of a project), so the user knows
 * why the first diagnostics take a while. Nothing is sent to clients without {@code window.workDoneProgress}.
 */
public final class WorkProgress {
  private final Supplier<LanguageClient> client;
  private final Supplier<ClientSupport> support;

  public WorkProgress(Supplier<LanguageClient> client, Supplier<ClientSupport> support) {
    this.client = client;
    this.support = support;
  }

  /** A job in progress; {@link Job#close} ends it. */
  public interface Job extends AutoCloseable {
    @Override
    void close();
  }

  public Job begin(String title, String message) {
    LanguageClient c = client.get();
    if (c == null || !support.get().workDoneProgress()) {
      return () -> { };
    }
    Either<String, Integer> token = Either.forLeft("racetriage-" + UUID.randomUUID());
    c.createProgress(new WorkDoneProgressCreateParams(token));
    WorkDoneProgressBegin begin = new WorkDoneProgressBegin();
    begin.setTitle(title);
    begin.setMessage(message);
    begin.setCancellable(false);
    c.notifyProgress(new ProgressParams(token, Either.forLeft(begin)));
    return () -> {
      WorkDoneProgressEnd end = new WorkDoneProgressEnd();
      c.notifyProgress(new ProgressParams(token, Either.forLeft(end)));
    };
  }

  /** For tests and tools that run the analysis without a client. */
  public static WorkProgress none() {
    return new WorkProgress(() -> null, () -> ClientSupport.from(null));
  }
}
