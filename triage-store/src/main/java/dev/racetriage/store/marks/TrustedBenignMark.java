package dev.racetriage.store.marks;

import dev.racetriage.store.FieldKey;
import java.time.Instant;
import java.util.Objects;

/** A team's decision that a race on {@code field} is harmless. It hides the race from display, never the evidence. */
public record TrustedBenignMark(FieldKey field, String author, String note, Instant markedAt) {
  /**
   * The longest note, reopen reason or comment a person may record, in characters (UTF-16 units, as
   * {@link String#length()} counts). It keeps a pasted log out of the committed mirror file and the dashboard's pages;
   * the evidence belongs in the verdict, a long argument in an issue the note links to. Every entry point (CLI,
   * dashboard, LSP) goes through {@link TriageMarks}, which enforces it.
   */
  public static final int MAX_NOTE = 4_000;

  public TrustedBenignMark {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(author, "author");
    Objects.requireNonNull(note, "note");
    Objects.requireNonNull(markedAt, "markedAt");
  }
}
