package dev.racetriage.lsp.commands;

import com.google.gson.JsonElement;
import com.google.gson.JsonPrimitive;
import dev.racetriage.lsp.lifecycle.ClientLog;
import dev.racetriage.lsp.lifecycle.ClientSupport;
import dev.racetriage.lsp.settings.ServerSettings;
import dev.racetriage.lsp.triage.TriageConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.eclipse.lsp4j.ExecuteCommandParams;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.ShowMessageRequestParams;
import org.eclipse.lsp4j.ShowDocumentParams;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;
import org.eclipse.lsp4j.services.LanguageClient;

/** {@code workspace/executeCommand} for {@link Commands}: the store writes and the dashboard. */
public final class CommandHandler {
  private final TriageConnection triage;
  private final Supplier<ServerSettings> settings;
  private final Supplier<LanguageClient> client;
  private final Supplier<ClientSupport> support;
  private final Runnable refresh;
  private final ClientLog log;

  public CommandHandler(TriageConnection triage, Supplier<ServerSettings> settings, Supplier<LanguageClient> client,
      Supplier<ClientSupport> support, Runnable refresh, ClientLog log) {
    this.triage = triage;
    this.settings = settings;
    this.client = client;
    this.support = support;
    this.refresh = refresh;
    this.log = log;
  }

  public Object execute(ExecuteCommandParams params) {
    List<Object> args = params.getArguments() == null ? List.of() : params.getArguments();
    String command = params.getCommand();
    if (Commands.MARK_TRUSTED_BENIGN.equals(command)) {
      return markTrustedBenign(required(args, 0, command, "the field key"),
          optional(args, 1).orElse("marked trusted-benign from the editor"),
          optional(args, 2).filter(OVERRIDE::equals).isPresent());
    } else if (Commands.TRIAGE_NOW.equals(command)) {
      return triageNow(required(args, 0, command, "the field key"));
    } else if (Commands.OPEN_DASHBOARD.equals(command)) {
      return openDashboard(optional(args, 0));
    } else if (Commands.REFRESH.equals(command)) {
      refresh.run();
      return "refreshed";
    }
    throw new ResponseErrorException(new ResponseError(ResponseErrorCode.InvalidParams,
        "unknown command '" + command + "'; this server runs " + Commands.ALL, null));
  }

  /** The third argument of {@link Commands#MARK_TRUSTED_BENIGN} that confirms overriding a destructive verdict. */
  public static final String OVERRIDE = "override-destructive";
  static final String MARK_ANYWAY = "Mark anyway (override)";

  private String markTrustedBenign(String fieldKey, String note, boolean confirmed) {
    String author = settings.get().author();
    Optional<String> evidence = triage.forWriting().destructiveEvidence(fieldKey);
    if (evidence.isPresent() && !confirmed && !confirmOverride(fieldKey, evidence.get())) {
      String message = "racetriage: " + fieldKey + " was not marked: it is destructive (" + evidence.get() + ")";
      show(MessageType.Info, message);
      return message;
    }
    boolean override = evidence.isPresent();
    storeWrite("mark " + fieldKey + " trusted-benign",
        () -> triage.forWriting().markTrustedBenign(fieldKey, author, note, override));
    refresh.run();
    String message = "racetriage: marked " + fieldKey + " trusted-benign (by " + author + "); commit "
        + ".racetriage/trusted-benign.json to share the mark with the team";
    show(MessageType.Info, message);
    return message;
  }

  /**
   * Asks the user to confirm marking a destructive race, naming the evidence ({@code window/showMessageRequest}); false
   * when the client cannot ask, the user declines, or no answer comes within a few minutes.
   */
  private boolean confirmOverride(String fieldKey, String evidence) {
    LanguageClient c = client.get();
    if (c == null) return false;
    ShowMessageRequestParams ask = new ShowMessageRequestParams(List.of(new MessageActionItem(MARK_ANYWAY),
        new MessageActionItem("Cancel")));
    ask.setType(MessageType.Warning);
    ask.setMessage("racetriage: " + fieldKey + " is destructive (" + evidence + "): stale values made a test fail. "
        + "Marking it trusted-benign overrides that evidence; the audit log records the override and 'racetriage "
        + "triage' still fails on it unless --allow-overridden.");
    try {
      MessageActionItem answer = c.showMessageRequest(ask).get(5, java.util.concurrent.TimeUnit.MINUTES);
      return answer != null && MARK_ANYWAY.equals(answer.getTitle());
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private String triageNow(String fieldKey) {
    storeWrite("queue " + fieldKey + " for triage",
        () -> triage.forWriting().enqueueTriage(fieldKey, "requested from the editor"));
    String message = "racetriage: queued " + fieldKey + " for triage; the daemon picks it up next"
        + (settings.get().startDaemon() ? "" : " (if no daemon runs, start 'racetriage daemon' in the project)");
    show(MessageType.Info, message);
    refresh.run();
    return message;
  }

  private String openDashboard(Optional<String> fieldKey) {
    String url = dashboardPage(settings.get().dashboardUrl(), fieldKey);
    LanguageClient c = client.get();
    if (c != null && support.get().showDocument()) {
      ShowDocumentParams show = new ShowDocumentParams(url);
      show.setExternal(true);
      c.showDocument(show);
    } else {
      show(MessageType.Info, "racetriage: the dashboard is at " + url
          + "; start it with 'racetriage dashboard'");
    }
    return url;
  }

  /** The dashboard's overview, or the race page of one field ({@code races/{id}}, the key URL-encoded). */
  static String dashboardPage(URI base, Optional<String> fieldKey) {
    String root = base.toString().endsWith("/") ? base.toString() : base + "/";
    return fieldKey.map(key -> root + "races/" + URLEncoder.encode(key, StandardCharsets.UTF_8)).orElse(root);
  }

  private void storeWrite(String what, Runnable write) {
    try {
      write.run();
    } catch (RuntimeException | LinkageError e) {
      String where = triage.location().map(Object::toString).orElse("(no workspace folder)");
      log.error("racetriage: could not " + what + " in " + where, e);
      throw new ResponseErrorException(new ResponseError(ResponseErrorCode.InternalError,
          "racetriage: could not " + what + " in the triage database " + where + ": " + e.getMessage(), null));
    }
  }

  private void show(MessageType type, String message) {
    LanguageClient c = client.get();
    if (c != null) {
      c.showMessage(new MessageParams(type, message));
    }
  }

  private static String required(List<Object> args, int index, String command, String what) {
    return optional(args, index).orElseThrow(() -> new ResponseErrorException(new ResponseError(
        ResponseErrorCode.InvalidParams, command + " needs " + what + " as argument " + (index + 1), null)));
  }

  private static Optional<String> optional(List<Object> args, int index) {
    if (index >= args.size() || args.get(index) == null) {
      return Optional.empty();
    }
    Object value = args.get(index);
    if (value instanceof JsonPrimitive primitive) {
      return Optional.of(primitive.getAsString()).filter(s -> !s.isBlank());
    }
    if (value instanceof JsonElement element) {
      return element.isJsonNull() ? Optional.empty() : Optional.of(element.toString());
    }
    return Optional.of(value.toString()).filter(s -> !s.isBlank());
  }
}
