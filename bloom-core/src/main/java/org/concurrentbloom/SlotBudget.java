package org.concurrentbloom;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The room left in one layer of a {@link ScalableBloomFilter}: a fixed number of slots that adds take
 * one at a time, with exactly one taker told that it took the last one.
 *
 * <p>Why striped. Every add of a new item takes a slot, so a single counter would be one cache line
 * written by every core on every add. Instead the capacity is split into stripes, each with its own
 * quota in its own 128-byte-padded cell (two cache lines, so the adjacent-line prefetcher does not pair
 * neighbours), and a thread starts at the stripe its identity hash picks: threads mostly decrement
 * cells no other core touches, as in {@link java.util.concurrent.atomic.LongAdder}. Unlike a LongAdder
 * the total is never summed: a thread whose stripe is empty moves on to the next ones, and the layer is
 * full when every stripe is. The thread whose decrement empties a stripe then counts it in {@link
 * #emptyStripes}, and the one whose count completes the set learns {@link #LAST}: every slot is gone
 * by then. A stripe that is empty stays empty, so a thread that found all stripes empty also knows
 * every slot is gone (the taker that will learn LAST may not have counted yet; the caller then waits
 * for the growth, or starts it).
 *
 * <p>Exact: the slots handed out number exactly the capacity, each by one successful CAS, so at most
 * capacity adds ever enter a layer and exactly one thread learns {@link #LAST}.
 *
 * <p>Any thread may call any method.
 */
final class SlotBudget {
  /** {@link #tryTake} found no slot left: the layer is full. */
  static final int NONE = 0;
  /** {@link #tryTake} took a slot and others remain, or other threads still hold the last ones. */
  static final int TOOK = 1;
  /** {@link #tryTake} took the very last slot: the caller grows the filter. */
  static final int LAST = 2;

  /** Longs between two stripes' cells: 128 bytes. */
  private static final int PAD = 16;
  /** At least this many slots per stripe: small layers need little striping and few cells. */
  private static final long MIN_SLOTS_PER_STRIPE = 64;
  /**
   * Stripes for the largest layers: four per processor, rounded up to a power of two, at most 64. More
   * stripes than threads make it unlikely that two threads' identity hashes pick the same stripe.
   */
  private static final int MAX_STRIPES =
      Math.min(64, Integer.highestOneBit(4 * Math.max(1, Runtime.getRuntime().availableProcessors()) * 2 - 1));

  private final long capacity;
  private final int stripes;
  /** Remaining slots of stripe s at index s * PAD. */
  private final AtomicLongArray cells;
  private final AtomicInteger emptyStripes = new AtomicInteger();

  /** A budget of {@code capacity} slots of which {@code taken} are already gone (a loaded layer). */
  SlotBudget(long capacity, long taken) {
    if (capacity < 1 || taken < 0 || taken > capacity) {
      throw new IllegalArgumentException("budget of " + capacity + " slots cannot have " + taken + " taken");
    }
    this.capacity = capacity;
    this.stripes = (int) Math.min(MAX_STRIPES, Long.highestOneBit(Math.max(1, capacity / MIN_SLOTS_PER_STRIPE)));
    this.cells = new AtomicLongArray(stripes * PAD);
    long left = capacity - taken;
    int empty = 0;
    for (int s = 0; s < stripes; s++) {
      long quota = left / stripes + (s < left % stripes ? 1 : 0);
      cells.set(s * PAD, quota);
      if (quota == 0) {
        empty++;
      }
    }
    emptyStripes.set(empty);
  }

  /**
   * Takes one slot if any is left: {@link #LAST} if it was the last of all, {@link #TOOK} otherwise,
   * {@link #NONE} (taking nothing) if the budget is used up.
   */
  int tryTake() {
    int first = System.identityHashCode(Thread.currentThread());
    for (int i = 0; i < stripes; i++) {
      int cell = ((first + i) & (stripes - 1)) * PAD;
      long left = cells.getAcquire(cell);
      while (left > 0) {
        long witness = cells.compareAndExchange(cell, left, left - 1);
        if (witness == left) {
          return left == 1 && emptyStripes.incrementAndGet() == stripes ? LAST : TOOK;
        }
        left = witness;
      }
    }
    return NONE;
  }

  /** The slots this budget started with. */
  long capacity() {
    return capacity;
  }

  /** Slots taken so far; exact when no {@link #tryTake} is running. */
  long taken() {
    long left = 0;
    for (int s = 0; s < stripes; s++) {
      left += cells.getAcquire(s * PAD);
    }
    return capacity - left;
  }

  /** The number of stripes, for tests. */
  int stripes() {
    return stripes;
  }
}
