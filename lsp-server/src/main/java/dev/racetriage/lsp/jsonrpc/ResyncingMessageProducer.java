package dev.racetriage.lsp.jsonrpc;

import java.io.InputStream;
import java.util.logging.Logger;
import org.eclipse.lsp4j.jsonrpc.MessageIssueHandler;
import org.eclipse.lsp4j.jsonrpc.json.MessageJsonHandler;
import org.eclipse.lsp4j.jsonrpc.json.StreamMessageProducer;

/**
 * LSP4J's reader, made to find its footing again after a message with a wrong {@code Content-Length}. When the
 * declared length is off, the tail of one message and the header of the next end up on one header line
 * ({@code ...}Content-Length: 780}); the stock reader never recovers from that and drops every later message. This
 * one takes the header from where {@code Content-Length:} starts, so at most the message after the broken one is lost.
 * Unparsable JSON is left to LSP4J: it is logged and skipped, or answered with an error when it has an id.
 */
final class ResyncingMessageProducer extends StreamMessageProducer {
  private static final Logger LOG = Logger.getLogger(ResyncingMessageProducer.class.getName());
  private static final String CONTENT_LENGTH = "Content-Length:";

  ResyncingMessageProducer(InputStream input, MessageJsonHandler jsonHandler, MessageIssueHandler issueHandler) {
    super(input, jsonHandler, issueHandler);
  }

  @Override
  protected void parseHeader(String line, Headers headers) {
    int start = line.indexOf(CONTENT_LENGTH);
    if (start > 0) {
      LOG.warning("skipped " + start + " characters of input that were not part of any message (a previous message"
          + " declared a wrong Content-Length?)");
      super.parseHeader(line.substring(start), headers);
    } else {
      super.parseHeader(line, headers);
    }
  }
}
