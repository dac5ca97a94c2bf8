package org.concurrentbloom.guard;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Waiting for latches in tests. Public, in the module's test jar, for other modules' tests. */
public final class Latches {
  private Latches() {}

  /** Waits for {@code latch} up to 30 s; fails the test (from any thread) if it is not released. */
  public static void await(CountDownLatch latch) {
    try {
      if (!latch.await(30, TimeUnit.SECONDS)) {
        throw new AssertionError("latch not released within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
