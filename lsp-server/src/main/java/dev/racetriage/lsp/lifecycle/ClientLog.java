package dev.racetriage.lsp.lifecycle;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * Where the server tells what happened: java.util.logging (stderr — never stdout, which carries the protocol) and the
 * client's output panel ({@code window/logMessage}). {@link #showOnce} raises a {@code window/showMessage} only the
 * first time a given problem occurs, so a broken setting does not nag at every keystroke.
 */
public final class ClientLog {
  private static final Logger LOG = Logger.getLogger("dev.racetriage.lsp");

  private volatile LanguageClient client;
  private final Set<String> shown = ConcurrentHashMap.newKeySet();

  public void connect(LanguageClient client) {
    this.client = client;
  }

  public void info(String message) {
    LOG.info(message);
    send(MessageType.Info, message);
  }

  public void warn(String message) {
    LOG.warning(message);
    send(MessageType.Warning, message);
  }

  public void error(String message, Throwable cause) {
    LOG.log(Level.WARNING, message, cause);
    send(MessageType.Error, cause == null ? message : message + " (" + cause + ")");
  }

  /** Shows a message to the user once per {@code key}; later occurrences only go to the log. */
  public void showOnce(String key, MessageType type, String message) {
    LOG.log(type == MessageType.Error ? Level.WARNING : Level.INFO, message);
    LanguageClient c = client;
    if (c == null) {
      return;
    }
    if (shown.add(key)) {
      c.showMessage(new MessageParams(type, message));
    } else {
      send(type, message);
    }
  }

  private void send(MessageType type, String message) {
    LanguageClient c = client;
    if (c != null) {
      try {
        c.logMessage(new MessageParams(type, message));
      } catch (RuntimeException e) {
        LOG.log(Level.FINE, "could not send a log message to the client", e);
      }
    }
  }
}
