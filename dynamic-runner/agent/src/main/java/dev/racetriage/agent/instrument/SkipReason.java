package dev.racetriage.agent.instrument;

/** Why an application class was left uninstrumented; reported loudly (summary and stderr). */
public final class SkipReason {
  private SkipReason() {
  }

  static String versionTooNew(int major) {
    return "class-file version " + major + " (Java " + (major - 44) + ") is newer than the agent's ASM supports;"
        + " the class runs uninstrumented: compile for an older release or update the agent";
  }

  static String methodTooLarge(String method) {
    return "method " + method + " is larger than 64 KiB after instrumentation; the class runs uninstrumented:"
        + " split the method or exclude the class (exclude=...)";
  }

  static String classTooLarge() {
    return "the class's constant pool overflows after instrumentation; the class runs uninstrumented";
  }

  static String unreadable(Throwable cause) {
    return "the class file could not be instrumented (" + cause.getClass().getSimpleName()
        + (cause.getMessage() == null ? "" : ": " + cause.getMessage()) + "); the class runs uninstrumented";
  }
}
