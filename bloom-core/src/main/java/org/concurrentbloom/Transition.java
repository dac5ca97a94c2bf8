package org.concurrentbloom;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * One replacement of a sealed {@link BitTable} by its successor: an empty table for {@code clear()}, or
 * the old bits OR another filter's bits for {@code merge()}. {@link CurrentTable} explains the protocol;
 * this class does the copy, split into chunks so that any thread can finish it (copying a chunk twice is
 * harmless because the successor's words are only ever OR-ed into). Any thread may call any method.
 */
final class Transition {
  /** Words per unit of copy work: 32 KiB, large enough to amortise the claim, small enough to share. */
  static final int CHUNK_WORDS = 1 << 12;

  final BitTable from;
  final BitTable to;
  /** The other filter's words for a merge; null for a clear, whose successor starts empty. */
  private final long[] mergeSource;
  private final int chunkCount;
  private final AtomicInteger nextClaim = new AtomicInteger();
  private final AtomicInteger chunksDone = new AtomicInteger();
  private final AtomicIntegerArray chunkDone;

  private Transition(BitTable from, BitTable to, long[] mergeSource) {
    this.from = from;
    this.to = to;
    this.mergeSource = mergeSource;
    this.chunkCount = mergeSource == null ? 0 : (from.words.length + CHUNK_WORDS - 1) / CHUNK_WORDS;
    this.chunkDone = mergeSource == null ? null : new AtomicIntegerArray(chunkCount);
  }

  /** True for a clear's transition (to an empty table), false for a merge's. */
  boolean isClear() {
    return mergeSource == null;
  }

  static Transition toEmpty(BitTable from) {
    return new Transition(from, BitTable.empty(from.words.length), null);
  }

  static Transition toUnion(BitTable from, long[] otherWords, long otherCount) {
    // The successor shares the add counter, so adds counted on T just before the seal are not lost.
    BitTable to = new BitTable(new long[from.words.length], from.adds,
        BitTable.saturatedSum(from.baseCount, otherCount));
    return new Transition(from, to, otherWords);
  }

  /**
   * Makes the successor's words complete. Any thread may call this, any number of times; on return
   * every chunk has been copied by someone after the seal.
   */
  void finishCopy() {
    if (mergeSource == null) {
      return;
    }
    // Fast path: share the work by claiming chunks in order.
    for (int c; (c = nextClaim.getAndIncrement()) < chunkCount; ) {
      copyChunk(c);
    }
    // Claimed chunks whose claimer is slow or stalled: do them too rather than wait.
    for (int c = 0; c < chunkCount && chunksDone.get() < chunkCount; c++) {
      if (chunkDone.get(c) == 0) {
        copyChunk(c);
      }
    }
  }

  private void copyChunk(int c) {
    long[] src = from.words;
    long[] other = mergeSource;
    long[] dst = to.words;
    int end = Math.min(src.length, (c + 1) * CHUNK_WORDS);
    for (int w = c * CHUNK_WORDS; w < end; w++) {
      // A volatile read: ordered after the seal in the synchronization order, it sees every bit an add
      // set before that add found T unsealed (an acquire read would not be guaranteed to).
      long bits = AtomicWords.getVolatile(src, w) | AtomicWords.getAcquire(other, w);
      if (bits != 0) {
        // OR, never a plain store: a late copier must not erase bits an add has already put in S.
        AtomicWords.orWordCas(dst, w, bits);
      }
    }
    if (chunkDone.compareAndSet(c, 0, 1)) {
      chunksDone.incrementAndGet();
    }
  }
}
