package org.concurrentbloom.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waiting in tests: for threads, or for a condition polled with a deadline. Never a bare sleep. */
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

  /** Runs the tasks in their own threads, started together, and rethrows the first failure. */
  static void runTogether(List<Runnable> tasks) throws InterruptedException {
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (Runnable task : tasks) {
      Thread t = new Thread(() -> {
        try {
          start.await();
          task.run();
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      });
      threads.add(t);
      t.start();
    }
    start.countDown();
    for (Thread t : threads) {
      t.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("a worker failed", failure.get());
    }
  }
}
