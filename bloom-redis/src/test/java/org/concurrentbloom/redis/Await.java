package org.concurrentbloom.redis;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Waiting in tests for a condition polled with a deadline. Never a bare sleep. Threads are run and
 * joined by bloom-core's {@link org.concurrentbloom.ConcurrentRun}.
 */
final class Await {
  private Await() {}

  /** Polls {@code condition} every few milliseconds until it holds; fails after {@code timeout}. */
  static void until(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out after " + timeout + " waiting until " + what);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }
}
