package dev.racetriage.agent.options;

/** An agent argument the agent cannot honour; the message names the option and says what is accepted. */
public final class InvalidAgentOptionException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String option;

  public InvalidAgentOptionException(String option, String message) {
    super(message);
    this.option = option;
  }

  /** The offending option's key (or the raw text when it has no key). */
  public String option() {
    return option;
  }
}
