package org.concurrentbloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Shared/exclusive access to stripes of a counter array: stripe {@code s} covers the words
 * {@code [s << shift, (s + 1) << shift)}, so ascending words have ascending stripes. Many threads may
 * hold a stripe shared at once; a thread holding it exclusively excludes both. A
 * {@link CountingBloomFilter}'s adds enter one stripe shared, its removes enter the stripes of all their
 * words exclusively, and its bulk operations enter every stripe exclusively (the design comment of
 * {@link GatedCounters} says why).
 *
 * <p>Each stripe is one {@code long} in its own 128-byte slot (two cache lines, so that adjacent-line
 * prefetching does not pair stripes either): bit 63 is the exclusive holder, the low bits count shared
 * holders. Entering shared is one atomic add, undone (and retried once bit 63 clears) if bit 63 was set.
 * Entering exclusively sets bit 63 with a CAS (waiting for a previous exclusive holder), which stops new
 * shared entries, and then waits for the shared holders to leave: so a stream of shared entries cannot
 * starve an exclusive one. All accesses are volatile, so a holder's writes happen-before the next
 * holder's reads of the stripe's data.
 *
 * <p>Waiting spins with {@link Thread#onSpinWait()} and then yields: holders hold a stripe for a few
 * counter updates, except that bulk operations hold all stripes for a pass over the array. No holder
 * waits for anything while it holds a stripe shared, and exclusive holders take stripes in ascending
 * order only ({@link #enterAllExclusive} does too), so there is no deadlock.
 *
 * <p>Any thread may call any method; the caller pairs each enter with its exit.
 */
final class StripedGate {
  private static final VarHandle STATE = MethodHandles.arrayElementVarHandle(long[].class);
  /** Longs per stripe slot: 128 bytes. */
  private static final int SLOT = 16;
  private static final long EXCLUSIVE = Long.MIN_VALUE;
  private static final int SPINS_BEFORE_YIELD = 64;

  private final long[] states;
  private final int stripes;
  private final int shift;

  /** A gate of at most {@code maxStripes} (a power of two) stripes over {@code words} words. */
  StripedGate(int words, int maxStripes) {
    int s = 0;
    while (((long) words - 1) >>> s >= maxStripes) {
      s++;
    }
    shift = s;
    stripes = (int) (((long) Math.max(words, 1) - 1) >>> s) + 1;
    states = new long[stripes * SLOT];
  }

  /** The stripe covering word {@code word}. */
  int stripeOf(int word) {
    return word >>> shift;
  }

  void enterShared(int stripe) {
    int i = stripe * SLOT;
    for (int spins = 0; ; ) {
      if ((long) STATE.getAndAdd(states, i, 1L) >= 0) {
        return; // no exclusive holder: one atomic add is the whole entry
      }
      // An exclusive holder (or claimant): back out, and wait for it to leave. Meanwhile its drain
      // may see our transient 1 and wait a moment longer; nothing else reads the count.
      STATE.getAndAdd(states, i, -1L);
      while ((long) STATE.getVolatile(states, i) < 0) {
        backOff(spins++);
      }
    }
  }

  void exitShared(int stripe) {
    STATE.getAndAdd(states, stripe * SLOT, -1L);
  }

  void enterExclusive(int stripe) {
    int i = stripe * SLOT;
    if (STATE.compareAndSet(states, i, 0L, EXCLUSIVE)) {
      return; // nobody inside
    }
    for (int spins = 0; ; spins++) {
      long s = (long) STATE.getVolatile(states, i);
      if (s >= 0 && STATE.compareAndSet(states, i, s, s | EXCLUSIVE)) {
        break;
      }
      backOff(spins);
    }
    // No new shared holder can enter now; wait for the ones inside to leave.
    for (int spins = 0; (long) STATE.getVolatile(states, i) != EXCLUSIVE; spins++) {
      backOff(spins);
    }
  }

  void exitExclusive(int stripe) {
    // An add, not a store of 0: a shared entry that is backing out may have its transient 1 in the count.
    // Adding Long.MIN_VALUE clears bit 63 (it is set), whatever the low bits hold.
    STATE.getAndAdd(states, stripe * SLOT, EXCLUSIVE);
  }

  /** Enters every stripe exclusively, in ascending order: no add or remove is in progress on return. */
  void enterAllExclusive() {
    for (int s = 0; s < stripes; s++) {
      enterExclusive(s);
    }
  }

  void exitAllExclusive() {
    for (int s = stripes - 1; s >= 0; s--) {
      exitExclusive(s);
    }
  }

  @SuppressWarnings("ThreadPriorityCheck") // deliberate: after spinning, let the holder run (2 cores)
  private static void backOff(int spins) {
    if (spins < SPINS_BEFORE_YIELD) {
      Thread.onSpinWait();
    } else {
      Thread.yield();
    }
  }
}
