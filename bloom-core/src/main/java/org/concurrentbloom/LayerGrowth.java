package org.concurrentbloom;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One attempt at adding the layer that follows a full layer of a {@link ScalableBloomFilter}. Exactly
 * one thread {@linkplain #casClaim() claims} an attempt and builds; adds that need room meanwhile
 * {@linkplain #awaitOutcome() wait} for it. The outcome is one of: built (the layer is published, or a
 * clear made it moot), {@linkplain #refusal() refused} for good (the memory cap or a size limit), or
 * {@linkplain #failed() failed} (the builder threw, e.g. OutOfMemoryError), in which case a waiter may
 * replace the attempt with a fresh one and try again.
 *
 * <p>Any thread may call any method; {@link #finish} only the claimant, once.
 */
final class LayerGrowth {
  private final AtomicBoolean claimed = new AtomicBoolean();
  private final CountDownLatch finished = new CountDownLatch(1);
  // Written before finished.countDown(), read after await(): the latch orders them.
  private String refusal;
  private boolean failed;

  /** True for the one caller that gets to build; false if another thread already has. */
  boolean casClaim() {
    return !claimed.get() && claimed.compareAndSet(false, true);
  }

  /**
   * Records the outcome and wakes the waiters: {@code refusal} (non-null) ends growth for good with
   * that message; {@code failed} means the builder threw and another attempt may follow.
   */
  void finish(String refusal, boolean failed) {
    this.refusal = refusal;
    this.failed = failed;
    finished.countDown();
  }

  /** Waits until the claimant has finished, keeping (not acting on) any interrupt meanwhile. */
  void awaitOutcome() {
    boolean interrupted = false;
    try {
      for (;;) {
        try {
          finished.await();
          return;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Why growth is impossible, or null. Valid after {@link #awaitOutcome()}. */
  String refusal() {
    return refusal;
  }

  /** Whether the builder threw. Valid after {@link #awaitOutcome()}. */
  boolean failed() {
    return failed;
  }
}
