package org.concurrentbloom.guard;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link GuardScheduler} for tests: immediate tasks run on one real thread, delayed tasks wait in a
 * queue until the test fires them, so retries and periodic rebuilds are tested without a clock.
 */
final class ManualScheduler implements GuardScheduler {
  /** A task the guard asked to run after {@code delay}. */
  record Delayed(Runnable task, Duration delay) {}

  private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "manual-scheduler");
    t.setDaemon(true);
    return t;
  });
  private final BlockingQueue<Delayed> delayed = new LinkedBlockingQueue<>();

  @Override
  public void execute(Runnable task) {
    thread.execute(task);
  }

  @Override
  public void schedule(Runnable task, Duration delay) {
    delayed.add(new Delayed(task, delay));
  }

  /** Waits (up to 30 s, then fails) for the guard to schedule a delayed task, and returns it. */
  Delayed awaitDelayed() throws InterruptedException {
    Delayed d = delayed.poll(30, TimeUnit.SECONDS);
    if (d == null) {
      throw new AssertionError("the guard scheduled no delayed task within 30 s");
    }
    return d;
  }

  /** Runs a delayed task now, on the scheduler's thread. */
  void fire(Delayed d) {
    thread.execute(d.task());
  }

  /**
   * Waits until every task submitted so far has run: tasks run in order on one thread, so a marker
   * task submitted now runs after them.
   */
  void drain() throws Exception {
    thread.submit(() -> { }).get(30, TimeUnit.SECONDS);
  }

  /** Delayed tasks scheduled and not yet taken. */
  int delayedCount() {
    return delayed.size();
  }

  @Override
  public boolean shutdown(Duration grace) {
    thread.shutdownNow();
    try {
      return thread.awaitTermination(grace.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
