package dev.racetriage.agent.runtime;

import jdk.internal.vm.annotation.DontInline;

import dev.racetriage.agent.hb.Epoch;

/**
 * The element records of a long array ({@link ObjectShadow.ArrayShadow}), kept per chunk of {@link #SIZE} elements:
 * a chunk's epochs and sites (the flat records' layout, see {@code ArrayShadow}) are allocated at the first write of
 * one of its elements that is not a whole-chunk range write, and until then every element of the chunk holds the
 * chunk's <em>uniform</em> record — ⊥ for a chunk never written, or the epoch and site of the owner's last range write
 * over the whole chunk (an {@code Arrays.fill}, a hoisted loop filling the array). An array whose writes touch few
 * chunks (a histogram's counts, a buffer's head) or that is only ever filled as a whole costs ~20 bytes per 64
 * elements instead of 12 bytes per element; flat records were allocated whole at the first write and, for an array
 * that dies young, kept alive by the weak identity table until its entry is expunged (promoted with it).
 *
 * <p>Concurrency. A chunk, once allocated, stays: its records are the elements' state for good (a writer that locked
 * an element in it must find its write there). Chunks are allocated under this object's monitor, filled from the
 * uniform record, and published as a {@link Chunk} whose fields are final (a plain load that sees it sees its records). The
 * uniform record of an unallocated chunk is written only by the owner, in its owner mode (the array's write summary
 * is its epoch), with plain stores, the site first — as the flat records' owner writes are. An unordered writer makes
 * the summary shared (a compare-and-set) before it allocates a chunk, and the owner's range write ends with a fence and
 * a re-read of the summary ({@code DetectRuntime.writeRange}): either that writer's allocation copied the owner's new
 * uniform record, or the owner sees the summary changed and records its range again the shared way, into the chunk
 * the other writer allocated.
 */
final class ElementChunks {
  static final int SHIFT = 6;
  /** Elements per chunk: the epochs of a chunk are 512 bytes, its sites 256. */
  static final int SIZE = 1 << SHIFT;
  static final int MASK = SIZE - 1;

  /** The array's length. */
  final int length;
  /**
   * The allocated chunks. Read plainly: a {@link Chunk}'s fields are final, so a thread that sees one sees its records
   * (a VarHandle's acquire load costs a call in interpreted and C1 code, where short runs spend much of their time).
   */
  private final Chunk[] chunks;
  private final long[] uniformEpochs;
  private final int[] uniformSites;

  ElementChunks(int length) {
    this.length = length;
    int chunks = (int) (((long) length + MASK) >>> SHIFT);
    this.chunks = new Chunk[chunks];
    uniformEpochs = new long[chunks];
    uniformSites = new int[chunks];
    if (Epoch.BOTTOM != 0L) {
      java.util.Arrays.fill(uniformEpochs, Epoch.BOTTOM);
    }
  }

  /** The records of one allocated chunk: its elements' epochs and sites (see {@code ArrayShadow}'s flat records). */
  static final class Chunk {
    final long[] epochs;
    final int[] sites;

    Chunk(long[] epochs, int[] sites) {
      this.epochs = epochs;
      this.sites = sites;
    }
  }

  /** Chunk {@code c}, or null while it is uniform ({@link #uniformEpoch}). */
  Chunk chunk(int c) {
    return chunks[c];
  }

  /** The record every element of uniform chunk {@code c} holds: its epoch (read before {@link #uniformSite}). */
  long uniformEpoch(int c) {
    return uniformEpochs[c];
  }

  int uniformSite(int c) {
    return uniformSites[c];
  }

  /** The owner's range write over the whole of uniform chunk {@code c} (plain stores, the site first). */
  void setUniform(int c, long epoch, int site) {
    uniformSites[c] = site;
    uniformEpochs[c] = epoch;
  }

  /** The first element of chunk {@code c}. */
  static int start(int c) {
    return c << SHIFT;
  }

  /** The end (exclusive) of chunk {@code c}. */
  int end(int c) {
    return (int) Math.min(length, ((long) c + 1) << SHIFT);
  }

  /** Chunk {@code c}, allocated (from its uniform record) if it is still uniform. */
  Chunk allocated(int c) {
    Chunk k = chunks[c];
    return k != null ? k : allocate(c);
  }

  @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
  private synchronized Chunk allocate(int c) {
    Chunk k = chunks[c];
    if (k == null) {
      int n = end(c) - start(c);
      int site = uniformSites[c];
      long epoch = uniformEpochs[c];
      int[] s = new int[n];
      long[] e = new long[n];
      if (site != 0) {
        java.util.Arrays.fill(s, site);
      }
      if (epoch != 0L) {
        java.util.Arrays.fill(e, epoch);
      }
      k = new Chunk(e, s);
      chunks[c] = k;
    }
    return k;
  }

  /** Chunks allocated so far (tests). */
  synchronized int allocatedChunks() {
    int n = 0;
    for (Chunk k : chunks) {
      if (k != null) {
        n++;
      }
    }
    return n;
  }
}
