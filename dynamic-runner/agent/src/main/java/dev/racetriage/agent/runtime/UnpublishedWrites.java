package dev.racetriage.agent.runtime;

/**
 * One thread's last writes to sampled elements of arrays that no jumbled array field held yet (jumble mode): the
 * array, the index, the value and the thread's own clock at the write (its epoch). A thread that allocates an array,
 * fills it and stores it into a jumbled field finds its fill here when the store names the array
 * ({@link JumbleRuntime#noteArray}); a reader that the fill does not happen before may then still see the elements'
 * defaults. A few entries, replaced round-robin: the allocate-fill-publish sequence of one array or a few; what has
 * been replaced, or was written by another thread, is not found and the element starts from its current value.
 * Touched only by its own thread.
 */
final class UnpublishedWrites {
  private static final int SIZE = 8;
  private final Object[] arrays = new Object[SIZE];
  /** The run each entry belongs to: an entry of an earlier run of the test in this JVM is never found. */
  private final int[] runs = new int[SIZE];
  private final int[] index = new int[SIZE];
  private final long[] bits = new long[SIZE];
  private final int[] writer = new int[SIZE];
  private final int[] epoch = new int[SIZE];
  private int next;

  void remember(int run, Object array, int i, long value, int tid, int clock) {
    int slot = -1;
    for (int k = 0; k < SIZE; k++) {
      if (arrays[k] == array && index[k] == i && runs[k] == run) {
        slot = k; // a later write to the same element replaces the earlier one
        break;
      }
    }
    if (slot < 0) {
      slot = next;
      next = (next + 1) % SIZE;
    }
    arrays[slot] = array;
    runs[slot] = run;
    index[slot] = i;
    bits[slot] = value;
    writer[slot] = tid;
    epoch[slot] = clock;
  }

  /** The entry of element {@code i} of {@code array} in {@code run} if the element still holds its value, else -1. */
  int find(int run, Object array, int i, long value) {
    for (int k = 0; k < SIZE; k++) {
      if (arrays[k] == array && index[k] == i && runs[k] == run) {
        return bits[k] == value ? k : -1;
      }
    }
    return -1;
  }

  int writer(int entry) {
    return writer[entry];
  }

  int epoch(int entry) {
    return epoch[entry];
  }
}
