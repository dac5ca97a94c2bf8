package org.concurrentbloom;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Replaces a sealed {@link BitTable} with its successor, for {@code clear()} (an empty table) or
 * {@code merge()} (the old bits OR the other filter's bits).
 *
 * <p>Why not edit the words in place. Zeroing or OR-ing word by word is not atomic: a reader could see
 * item X already merged and then item Y not yet merged, an order no sequential filter produces, and a
 * clear could zero one bit of an add that is still running and then return, so the add would finish
 * after the clear with a bit missing: a false negative. So a clear or merge builds a new table and
 * swaps it in, and every operation checks, after touching the bits, whether its table was sealed.
 *
 * <p>The protocol. (1) The initiator seals the current table T by CAS-ing {@code T.next} from null to
 * this transition. (2) For a merge, the successor S is filled with T's words OR the other filter's
 * words, read <em>after</em> the seal. (3) Someone CASes the filter's table from T to S.
 * <ul>
 *   <li>An add first moves past any table that is already sealed (helping finish its transition):
 *       an add that starts after a seal belongs after it. It then sets its bits in T and reads
 *       {@code T.next}. If null, the read came before the seal, so (the accesses being volatile, or
 *       acquire reads followed by a volatile read) its bits were set before step 2 read them and are in
 *       S. If a clear sealed T, the add is ordered just before the clear and is cleared with it: it must
 *       not set its bits again in S, because a query may already have seen the item in T and the clear
 *       must then remove it. If a merge sealed T, the bits may have missed the copy, so the add sets
 *       them again in that merge's own successor S (never in whatever table is current by then, which a
 *       later clear may have emptied) and checks S the same way.
 *   <li>A query that finds a 0 bit answers false: T's bits only grow, so the item was absent when the
 *       query read the table reference. A query that finds all bits set trusts the answer only if T was
 *       still unsealed after the reads; otherwise the bits might come from an add that belongs after
 *       the transition, so it helps and asks the table that is current then.
 * </ul>
 * Any thread can finish a transition by itself (the copy is split into chunks; copying a chunk twice
 * is harmless because the successor's words are only ever OR-ed into), so a stalled initiator never
 * blocks adds or queries: the protocol is lock-free. The copy costs O(m/64) word reads and CASes, paid
 * once by the initiator and, only if they race with it, shared by concurrent operations.
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
