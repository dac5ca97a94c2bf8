package org.concurrentbloom.guard;

import com.google.errorprone.annotations.CanIgnoreReturnValue;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;

/**
 * Decides when a guard builds a filter, and runs each build on the guard's scheduler thread.
 *
 * <p>Coalescing. At most one build is queued and at most one runs. A request while none is queued
 * queues one; a request while one is queued joins it (same future). A build takes its queued future
 * out of the queue before it starts, so a request that arrives while it runs queues the next build:
 * every request is answered by a build whose scan started after the request.
 *
 * <p>Failures. A failed build completes its future exceptionally and schedules one retry after the
 * {@link Backoff} delay for the number of consecutive failures (never after a VirtualMachineError such
 * as OutOfMemoryError, which a retry would only repeat); a retry that finds a build has succeeded
 * meanwhile does nothing, unless the guard is still degraded (a failed insert no build covered yet):
 * then it builds anyway, so that a success that did not cover the failure cannot leave the guard
 * answering "maybe" for good. Periodic rebuilds ({@code interval}) are scheduled after each success;
 * only the most recently scheduled one fires.
 *
 * <p>Threads: {@link #request} and {@link #close} from any thread; everything else runs on the
 * scheduler's thread, which {@link GuardScheduler} guarantees is one at a time. The state that thread
 * confines is still volatile, so tests and {@code stats()} may read it.
 */
final class RebuildLoop {
  /**
   * Why a build was asked for. START and LOST (a shared backend lost its live filter) make sure some
   * filter is live: they adopt one another instance published, or load the snapshot, or scan; a RETRY
   * does what the failed build was asked to; the others scan the source into a new filter.
   */
  enum Reason { START, LOST, REQUESTED, DELETES, GROWTH, SCHEDULED, FAILED_INSERT, RETRY }

  /**
   * One build: publishes a new filter (or adopts a live one) or throws. {@code fullScan}: scan the
   * source into a new filter; otherwise make sure some filter is live, scanning only if there is neither
   * a live filter nor a usable snapshot. {@code loop} is the loop running it, passed in rather than held
   * so that a build and its loop need not know each other when they are made.
   */
  interface Build {
    void run(RebuildLoop loop, boolean fullScan) throws Exception;
  }

  private final GuardScheduler scheduler;
  private final Backoff backoff;
  private final Duration interval;
  private final Build build;
  /** True while the guard is degraded (BackendFailures): a retry must build even after a success. */
  private final BooleanSupplier degraded;
  private final Logger log;
  private final String name;

  private final Object lock = new Object();
  @GuardedBy("lock")
  private CompletableFuture<Void> queued;
  @GuardedBy("lock")
  private boolean queuedFullScan;
  @GuardedBy("lock")
  private boolean closed;

  private volatile Thread buildThread;
  private volatile boolean retryScheduled;
  /** Whether the build that failed last had to scan; its retry must too. */
  private volatile boolean retryFullScan;
  private volatile long periodicEpoch;
  volatile long failures;
  volatile long consecutiveFailures;
  volatile String lastError;

  RebuildLoop(GuardScheduler scheduler, Backoff backoff, Duration interval, Build build, BooleanSupplier degraded,
      Logger log, String name) {
    this.scheduler = scheduler;
    this.backoff = backoff;
    this.interval = interval;
    this.build = build;
    this.degraded = degraded;
    this.log = log;
    this.name = name;
  }

  /**
   * Queues a build (or joins the queued one); the future completes when it has published or failed. A
   * caller that does not wait may drop it: the loop itself reports and retries a failed build.
   */
  @CanIgnoreReturnValue
  CompletableFuture<Void> request(Reason reason) {
    synchronized (lock) {
      if (closed) {
        return CompletableFuture.failedFuture(new IllegalStateException("guard " + name + " is closed"));
      }
      if (reason == Reason.RETRY ? retryFullScan : reason != Reason.START && reason != Reason.LOST) {
        queuedFullScan = true;
      }
      if (queued == null) {
        queued = new CompletableFuture<>();
        try {
          scheduler.execute(this::runQueued);
        } catch (RejectedExecutionException e) {
          CompletableFuture<Void> f = queued;
          queued = null;
          f.completeExceptionally(e);
          return f;
        }
      }
      return queued;
    }
  }

  /**
   * Called by a build, on the build thread, when it has made a filter live, before it tells anyone
   * (the end of the degradation, awaitReady): whoever then reads the stats sees no failure streak,
   * though the build may still run (a snapshot, a resize round) and fail, which starts a new streak.
   */
  void published() {
    consecutiveFailures = 0;
  }

  /** True if the calling thread is running a build (so waiting for one would wait for itself). */
  boolean onBuildThread() {
    return Thread.currentThread() == buildThread;
  }

  @SuppressWarnings("NonAtomicVolatileUpdate") // written only on the scheduler's one thread
  private void runQueued() {
    CompletableFuture<Void> mine;
    boolean fullScan;
    synchronized (lock) {
      mine = queued;
      fullScan = queuedFullScan;
      queued = null;
      queuedFullScan = false;
    }
    if (mine == null) {
      return;
    }
    buildThread = Thread.currentThread();
    try {
      build.run(this, fullScan);
      consecutiveFailures = 0;
      mine.complete(null);
      schedulePeriodic();
    } catch (Exception | Error e) {
      failures++;
      retryFullScan = fullScan;
      long consecutive = ++consecutiveFailures;
      lastError = GuardStats.describe(e);
      mine.completeExceptionally(e);
      if (isClosed()) {
        return;
      }
      if (e instanceof VirtualMachineError) {
        // An OutOfMemoryError would most likely recur on every retry, each one first filling the heap
        // the application needs: report it and wait for a request (rebuildNow, growth, deletes) instead.
        log.log(Level.ERROR, () -> "guard " + name + ": build failed with " + e.getClass().getName()
            + "; the previous filter stays live; NOT retrying automatically", e);
        return;
      }
      Duration delay = backoff.delayAfter(consecutive);
      log.log(Level.WARNING, () -> "guard " + name + ": build failed (" + consecutive
          + " in a row); the previous filter stays live; retrying in " + delay, e);
      scheduleRetry(delay);
    } finally {
      buildThread = null;
    }
  }

  private void scheduleRetry(Duration delay) {
    if (retryScheduled) {
      return;
    }
    retryScheduled = true;
    schedule(() -> {
      retryScheduled = false;
      if (consecutiveFailures > 0 || degraded.getAsBoolean()) {
        request(Reason.RETRY);
      }
    }, delay);
  }

  @SuppressWarnings("NonAtomicVolatileUpdate") // written only on the scheduler's one thread
  private void schedulePeriodic() {
    if (interval == null) {
      return;
    }
    long epoch = ++periodicEpoch;
    schedule(() -> {
      if (periodicEpoch == epoch) {
        request(Reason.SCHEDULED);
      }
    }, interval);
  }

  private void schedule(Runnable task, Duration delay) {
    try {
      scheduler.schedule(task, delay);
    } catch (RejectedExecutionException e) {
      // Shut down meanwhile: nothing more to schedule.
    }
  }

  private boolean isClosed() {
    synchronized (lock) {
      return closed;
    }
  }

  /**
   * Stops: the queued build's future fails, the running build is interrupted and awaited up to
   * {@code grace}. Returns true if no build is running any more.
   */
  boolean close(Duration grace) {
    CompletableFuture<Void> dropped;
    synchronized (lock) {
      closed = true;
      dropped = queued;
      queued = null;
    }
    if (dropped != null) {
      dropped.completeExceptionally(new IllegalStateException("guard " + name + " was closed"));
    }
    return scheduler.shutdown(grace);
  }
}
