package org.concurrentbloom.guard;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a guard knows about its backend's failures, and whether they make it <em>degraded</em> (see
 * "Backend failures" in {@link MembershipGuard}): an insert the backend could not record may be missing
 * from the live filter, so every check answers "maybe" until a build that began after the failure is
 * published. Such a build read {@link #failedInserts()} before it registered its filter; publishing
 * it {@linkplain #covered covers} the failures counted by then.
 *
 * <p>Threads: {@link #backendError}, {@link #insertFailed} and the readers from any thread, without a
 * lock; {@link #covered} from the build thread only.
 */
final class BackendFailures {
  /** Calls into the backend that failed (checks answered "maybe", inserts not recorded, deletes not counted). */
  private final LongAdder errors = new LongAdder();
  private final AtomicLong failedInserts = new AtomicLong();
  /** failedInserts as read by the start of the last published build: those failures are covered. */
  private volatile long coveredFailedInserts;
  private volatile String lastError;

  /** Counts a failed call into the backend. */
  void backendError(Throwable e) {
    errors.increment();
    lastError = GuardStats.describe(e);
  }

  /**
   * Counts an insert the backend could not record; the guard is degraded from here on. Call it before
   * anything else about the failure, so no check that follows can answer "absent".
   */
  void insertFailed() {
    failedInserts.incrementAndGet();
  }

  /** Failed inserts so far: a build reads it before it registers its filter. */
  long failedInserts() {
    return failedInserts.get();
  }

  /**
   * A build that read {@code failedBefore} from {@link #failedInserts()} before it began was published.
   * Builds run one at a time, so this never moves back.
   */
  void covered(long failedBefore) {
    coveredFailedInserts = failedBefore;
  }

  /** True while a failed insert is not covered by a published build: every check must answer "maybe". */
  boolean degraded() {
    return failedInserts.get() != coveredFailedInserts;
  }

  long errors() {
    return errors.sum();
  }

  /** The latest failure, as "ExceptionClass: message", or null if none ever. */
  String lastError() {
    return lastError;
  }
}
