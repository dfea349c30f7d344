package dev.racetriage.corpus;

/**
 * Per-shift headcounts in an array held in a {@code volatile} field: the volatile orders the array reference (its
 * constructor's store), never the writes to its elements, so a reader that finds the array may read an element's
 * earlier value (issue 19's third held-out review: a volatile array reference with plain elements).
 *
 * <p>Racy field: {@code counts[]} — destructive (a headcount read as its default 0 makes the roster look unstaffed).
 */
public final class ShiftBoard {
  volatile int[] counts = new int[3];

  public void staff(int shift, int people) {
    counts[shift] = people;
  }

  public int staffed(int shift) {
    return counts[shift];
  }
}
