package dev.racetriage.store.marks;

/**
 * How a sync treats marks that the mirror file held at the last sync and no longer holds. One such mark is a
 * teammate's reopen. Several at once are as often a bad merge, a tool that truncated the file, or a branch switch,
 * and removing them would turn their races back into CI failures with no one having decided it; so they are held.
 */
public enum RemovalPolicy {
  /** Remove at most {@link TriageMarks#MAX_UNCONFIRMED_REMOVALS} mark; hold more for a person to decide. */
  HOLD_SEVERAL,
  /** Remove every mark the file dropped: a person confirmed it ({@code racetriage marks sync --accept-removals}). */
  ACCEPT
}
