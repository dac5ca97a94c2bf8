package org.concurrentbloom.guard;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs a guard's background work. Every task must run on one thread at a time, in submission order for
 * {@link #execute}: the guard's rebuild logic relies on never running two builds at once. Tests supply
 * an implementation whose delayed tasks they fire by hand, so nothing waits on a clock.
 *
 * <p>Threads: {@link #execute} and {@link #schedule} are called from any thread (a build is requested
 * by checking and recording threads, and by the build thread itself), {@link #shutdown} once, from
 * {@code close()}.
 */
interface GuardScheduler {

  /** Runs {@code task} soon. */
  void execute(Runnable task);

  /** Runs {@code task} after {@code delay}. */
  void schedule(Runnable task, Duration delay);

  /**
   * Stops: pending tasks are dropped, a running one is interrupted and awaited up to {@code grace}.
   * Returns true if no task is running any more. Later submissions may be rejected.
   */
  boolean shutdown(Duration grace);

  /** The default: one daemon thread named {@code bloom-guard-rebuild-<name>}. */
  static GuardScheduler singleThread(String name) {
    return new SingleThread(name);
  }

  /** A one-thread {@link ScheduledThreadPoolExecutor}. */
  final class SingleThread implements GuardScheduler {
    private final ScheduledThreadPoolExecutor executor;

    SingleThread(String name) {
      executor = new ScheduledThreadPoolExecutor(1, task -> {
        Thread t = new Thread(task, "bloom-guard-rebuild-" + name);
        t.setDaemon(true);
        return t;
      });
      executor.setRemoveOnCancelPolicy(true);
      executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    @Override
    public void execute(Runnable task) {
      executor.execute(task);
    }

    @Override
    public void schedule(Runnable task, Duration delay) {
      // The tasks (the loop's retries and periodic requests) handle their own failures.
      var unused = executor.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public boolean shutdown(Duration grace) {
      executor.shutdownNow();
      try {
        return executor.awaitTermination(grace.toNanos(), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return executor.isTerminated();
      }
    }
  }
}
