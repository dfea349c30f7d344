package dev.racetriage.store.marks;

import dev.racetriage.store.FieldKey;
import java.time.Instant;
import java.util.Objects;

/** A team's decision that a race on {@code field} is harmless. It hides the race from display, never the evidence. */
public record TrustedBenignMark(FieldKey field, String author, String note, Instant markedAt) {
  public TrustedBenignMark {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(author, "author");
    Objects.requireNonNull(note, "note");
    Objects.requireNonNull(markedAt, "markedAt");
  }
}
