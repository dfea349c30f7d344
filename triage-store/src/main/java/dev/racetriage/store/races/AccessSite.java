package dev.racetriage.store.races;

import java.util.List;
import java.util.Objects;

/**
 * One access that took part in a race: the thread's name, the source file (as the class file names it, e.g.
 * {@code Cache.java}, or a project-relative path when known; null if unknown), the 1-based line, and a short stack
 * ({@code pkg.Cls.method(Cls.java:12)} frames, innermost first).
 */
public record AccessSite(AccessType type, String thread, String file, int line, List<String> stack) {
  public AccessSite {
    Objects.requireNonNull(type, "type");
    thread = thread == null ? "" : thread;
    stack = stack == null ? List.of() : List.copyOf(stack);
  }

  /** Identifies the site regardless of which thread made the access: repeated reports of it are one row. */
  String siteKey() {
    return type + "|" + file + "|" + line + "|" + String.join(";", stack);
  }
}
