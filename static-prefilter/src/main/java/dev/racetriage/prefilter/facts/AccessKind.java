package dev.racetriage.prefilter.facts;

/** Whether an access reads or writes the field; a read-modify-write ({@code f++}, {@code f += n}) is a write. */
public enum AccessKind {
  READ,
  WRITE;

  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
