package dev.racetriage.cli;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns a {@link UserError} into one clear line on stderr and its exit code; anything else is a bug and keeps its
 * stack trace.
 */
final class UserErrorHandler implements IExecutionExceptionHandler {
  @Override
  public int handleExecutionException(Exception ex, CommandLine cli, ParseResult parseResult) throws Exception {
    if (ex instanceof UserError userError) {
      cli.getErr().println("racetriage: " + userError.getMessage());
      return userError.exitCode();
    }
    throw ex;
  }
}
