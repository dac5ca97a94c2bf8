package org.concurrentbloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per generation of an {@link ExpiringGenerations}, the adds that returned true into it while it held its
 * current slot. Any thread may call any method; none blocks, and {@link #increment} allocates nothing once
 * the counters have grown their cells.
 *
 * <p>Why a mark, not a reset: a step that recycles a generation cannot reset its counter at one instant,
 * because any thread may finish the step, and one that resumes after the new slot was published would
 * wipe the new slot's first counts. So the counters are never reset. Each generation's counter only grows,
 * and its mark records which slot it now counts for and the counter's value when that slot began (its
 * base). The first add of a new slot into the generation sets the mark, with a CAS, before it counts; every
 * add checks the mark before it counts, so the base, read before that CAS, holds no add of the new slot.
 * An add whose slot the generation has already left (a thread that stalled between its last look at the
 * state and its count) is dropped.
 *
 * <p>A mark is one long: the low {@value #TAG_BITS} bits of the slot above the base mod 2^{@value
 * #COUNT_BITS}. A count is the counter less the base, mod 2^40, exact below 2^39 adds in one slot (a
 * count read from a file is capped there). Tags compare by their difference mod 2^24: a generation's slots
 * advance G at a time, so only a thread stalled for 2^23 slots could confuse them.
 */
final class GenerationCounts {
  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
  static final int COUNT_BITS = 40;
  static final int TAG_BITS = 64 - COUNT_BITS;
  private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
  private static final long TAG_MASK = (1L << TAG_BITS) - 1;
  /** The largest count a file may bring in, leaving 2^39 adds of room before the count would wrap. */
  static final long MAX_LOADED = 1L << (COUNT_BITS - 1);

  /** Per generation: every add counted into it, over all its slots. */
  private final LongAdder[] adds;
  /** Per generation: the slot it counts for (low 24 bits) above the base. Volatile access. */
  private final long[] marks;

  /** Counters for {@code counts.length} generations; generation p holds {@code counts[p]} adds of slot {@code slots[p]}. */
  GenerationCounts(long[] slots, long[] counts) {
    adds = new LongAdder[counts.length];
    marks = new long[counts.length];
    for (int p = 0; p < counts.length; p++) {
      adds[p] = new LongAdder();
      adds[p].add(Math.min(counts[p], MAX_LOADED));
      marks[p] = pack(slots[p], 0);
    }
  }

  private static long pack(long slot, long base) {
    return (slot & TAG_MASK) << COUNT_BITS | (base & COUNT_MASK);
  }

  /** Positive if tag {@code a} is a later slot than tag {@code b}, negative if earlier, 0 if the same. */
  private static int compareTags(long a, long b) {
    return Long.signum((a - b) << COUNT_BITS); // the difference mod 2^24, in the top bits, signed
  }

  /** Counts one add that returned true into generation {@code p} while it held {@code slot}. */
  void increment(int p, long slot) {
    long tag = slot & TAG_MASK;
    long seen = (long) LONGS.getVolatile(marks, p);
    while (true) {
      int order = compareTags(tag, seen >>> COUNT_BITS);
      if (order < 0) {
        return; // the generation has moved on to a later slot: this add's slot is gone
      }
      if (order == 0) {
        break;
      }
      // The first add of this slot here: the counter holds only earlier slots' adds, so it is the base.
      long witness = (long) LONGS.compareAndExchange(marks, p, seen, pack(slot, adds[p].sum()));
      if (witness == seen) {
        break;
      }
      seen = witness;
    }
    adds[p].increment();
  }

  /** The adds counted into generation {@code p} while it held {@code slot}: 0 if it has not counted any. */
  long count(int p, long slot) {
    long mark = (long) LONGS.getVolatile(marks, p);
    if (mark >>> COUNT_BITS != (slot & TAG_MASK)) {
      return 0;
    }
    return (adds[p].sum() - mark) & COUNT_MASK;
  }
}
