package org.concurrentbloom;

import java.time.InstantSource;

/**
 * Clock time to slots, and slots to generations, for an {@link ExpiringGenerations}. Slot i is the time
 * [origin + i·s, origin + (i+1)·s); generation g holds the adds of every slot i with i mod G = g.
 * Immutable, apart from the clock it reads: any thread may call any method at any time, and none blocks
 * or allocates.
 */
final class SlotClock {
  final long origin;
  private final InstantSource clock;
  private final long slotMillis;
  private final int g;

  SlotClock(InstantSource clock, long origin, ExpiringPlan plan) {
    this.clock = clock;
    this.origin = origin;
    this.slotMillis = plan.slotMillis;
    this.g = plan.generations;
  }

  long now() {
    return clock.millis();
  }

  /** The slot that clock time {@code t} falls in; before the origin, a negative slot; capped at MAX_SLOT. */
  long slotOf(long t) {
    long d = t - origin;
    if (((t ^ origin) & (t ^ d)) < 0) { // overflow: t and origin are more than 2^63 ms apart
      // Ahead of the origin, d is the true difference read as unsigned (below 2^64); behind it, far behind.
      return t < origin ? Long.MIN_VALUE / 2 : Math.min(Long.divideUnsigned(d, slotMillis), ExpiringPlan.MAX_SLOT);
    }
    return Math.min(Math.floorDiv(d, slotMillis), ExpiringPlan.MAX_SLOT);
  }

  /** Start of slot {@code i}: origin + i·s (saturating). */
  long slotStart(long i) {
    return slotStart(origin, slotMillis, i);
  }

  /** origin + i·s, saturating at the ends of the long range. */
  static long slotStart(long origin, long slotMillis, long i) {
    long offset = multiplySaturated(i, slotMillis);
    long start = origin + offset;
    if (((origin ^ start) & (offset ^ start)) < 0) {
      return offset < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return start;
  }

  private static long multiplySaturated(long a, long b) {
    long hi = Math.multiplyHigh(a, b);
    long lo = a * b;
    if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) {
      return lo;
    }
    return (hi < 0) ? Long.MIN_VALUE : Long.MAX_VALUE;
  }

  int generation(long slot) {
    return (int) (slot & (g - 1));
  }

  /** The slot generation {@code p} holds when {@code cur} is current: the largest i ≤ cur with i mod G = p. */
  static long heldSlot(long cur, int p, int g) {
    return cur - ((cur - p) & (g - 1));
  }
}
