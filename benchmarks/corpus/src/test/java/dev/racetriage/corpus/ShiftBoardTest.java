package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The night shift is staffed before the roster is read: the reader sees its 4 people. */
class ShiftBoardTest {
  @Test
  void theRosterShowsTheStaffedShift() throws Throwable {
    ShiftBoard board = new ShiftBoard();
    int[] seen = new int[1];
    Concurrently.run(() -> board.staff(2, 4), Concurrently.settled(() -> seen[0] = board.staffed(2)));
    assertEquals(4, seen[0], "the night shift's headcount");
  }
}
