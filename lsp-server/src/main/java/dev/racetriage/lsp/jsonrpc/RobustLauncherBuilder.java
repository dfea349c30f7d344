package dev.racetriage.lsp.jsonrpc;

import org.eclipse.lsp4j.jsonrpc.MessageConsumer;
import org.eclipse.lsp4j.jsonrpc.MessageProducer;
import org.eclipse.lsp4j.jsonrpc.RemoteEndpoint;
import org.eclipse.lsp4j.jsonrpc.json.ConcurrentMessageProcessor;
import org.eclipse.lsp4j.jsonrpc.json.MessageJsonHandler;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * The LSP launcher with {@link ResyncingMessageProducer} as its reader (LSP4J creates its own reader inside
 * {@code create()}; the hooks below swap it while keeping everything else LSP4J's).
 */
public final class RobustLauncherBuilder extends LSPLauncher.Builder<LanguageClient> {
  private MessageJsonHandler jsonHandler;
  private RemoteEndpoint remoteEndpoint;

  @Override
  protected MessageJsonHandler createJsonHandler() {
    jsonHandler = super.createJsonHandler();
    return jsonHandler;
  }

  @Override
  protected RemoteEndpoint createRemoteEndpoint(MessageJsonHandler handler) {
    remoteEndpoint = super.createRemoteEndpoint(handler);
    return remoteEndpoint;
  }

  @Override
  protected ConcurrentMessageProcessor createMessageProcessor(
      MessageProducer reader, MessageConsumer messageConsumer, LanguageClient remoteProxy) {
    // the remote endpoint answers a broken request that has an id with an error response, as LSP4J's reader would
    MessageProducer resyncing = new ResyncingMessageProducer(input, jsonHandler, remoteEndpoint);
    return super.createMessageProcessor(resyncing, messageConsumer, remoteProxy);
  }
}
