package dev.racetriage.cli;

/** The plain answer of a subcommand whose implementation has not landed: exit 2, and say which part is missing. */
final class NotBuiltYet {
  private NotBuiltYet() {}

  static UserError of(String command, String missingPart) {
    return new UserError(
        "'" + command + "' is not built yet: " + missingPart + " has not landed in this version. "
            + "The command and its options are fixed; see README.md for what works today.",
        2);
  }
}
