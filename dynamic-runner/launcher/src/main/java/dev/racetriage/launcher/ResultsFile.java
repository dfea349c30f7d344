package dev.racetriage.launcher;

import dev.racetriage.agent.detect.JsonText;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** The JSON-lines results file; every line is flushed at once so a killed JVM leaves what it had. */
final class ResultsFile implements AutoCloseable {
  private static final int MAX_STACK_CHARS = 8_000;

  private final BufferedWriter out;

  ResultsFile(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
  }

  synchronized void write(StringBuilder line) {
    try {
      out.write(line.toString());
      out.write('\n');
      out.flush();
    } catch (IOException e) {
      System.err.println("racetriage launcher: cannot write results: " + e);
    }
  }

  /** Appends {@code "failure":{type, message, stack}} for a throwable. */
  static void failure(JsonText json, Throwable failure) {
    StringWriter stack = new StringWriter();
    failure.printStackTrace(new PrintWriter(stack));
    String text = stack.toString();
    if (text.length() > MAX_STACK_CHARS) {
      text = text.substring(0, MAX_STACK_CHARS) + "\n\t... (truncated)";
    }
    json.name("failure").beginObject()
        .name("type").value(failure.getClass().getName())
        .name("message").value(failure.getMessage())
        .name("stack").value(text)
        .endObject();
  }

  @Override
  public synchronized void close() throws IOException {
    out.close();
  }
}
