package org.concurrentbloom.benchmarks;

/**
 * A sliding-window filter in {@link ExpiringBenchmark}: G generations (layers) of one slot each, driven
 * by a {@link ManualClock}. The benchmark gives every implementation the same keys in the same slots.
 */
interface ExpiringUnderTest {
  /** Adds {@code key} to the current generation; true if it was not found before (as the library reports it). */
  boolean add(Object key);

  /** Whether {@code key} may have been added within the generations still remembered. */
  boolean mightContain(Object key);

  /**
   * Advances the clock by one slot. The next {@link #add} then runs the expiry step: it recycles the
   * oldest generation (ours) or drops the oldest layer and makes a new target (Commons).
   */
  void advanceSlot();

  /** The bits of all generations (layers) when the window is full: G·m. */
  long bitSize();

  /** The generations or layers currently held; G once the filter has seen a full window. */
  int depth();
}
