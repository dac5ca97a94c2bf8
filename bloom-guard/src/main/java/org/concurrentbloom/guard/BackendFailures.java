package org.concurrentbloom.guard;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import org.concurrentbloom.internal.VisibleForTesting;

/**
 * What a guard knows about its backend's failures, and whether they make it <em>degraded</em> (see
 * "Backend failures" in {@link MembershipGuard}): an insert the backend could not record may be missing
 * from the live filter, so every check answers "maybe" until the failure is <em>covered</em>, in one of
 * two ways:
 * <ul>
 *   <li>a build that read {@link #failedInserts()} before it registered its filter is published: its
 *       scan began after those failures, so it holds their keys;
 *   <li>a build adopting a live filter another instance published first {@linkplain #replay replays}
 *       the failed keys into the backend ({@code GuardFilters.add}: once that returns, the key is in
 *       every filter live from then on), and all of them went in.
 * </ul>
 * For the second, the keys of failed inserts are kept, numbered in the order they failed, up to
 * {@link #KEPT_KEYS}; past that only the number of the latest key not kept is remembered, and no replay
 * can cover it: the build scans instead.
 *
 * <p>Threads: {@link #backendError}, {@link #insertFailed} and the readers from any thread;
 * {@link #replay} and {@link #covered} from the build thread only. The key buffer is guarded by a lock,
 * which only failed inserts and builds take; {@link #degraded()}, on every check, reads two volatile
 * fields and no lock.
 *
 * @param <K> the type of key
 */
final class BackendFailures<K> {
  /** The most failed keys kept for a replay: enough for an outage of a busy instance, bounded in memory. */
  static final int KEPT_KEYS = 10_000;

  /** An insert that failed: its number (1 for the first) and key. */
  private record Failed<K>(long number, K key) {}

  /**
   * The keys to replay, and the failures they cover once all of them are in the backend.
   *
   * @param <K> the type of key
   * @param through the failures numbered up to this one are covered by the replay
   * @param keys the keys of the failures not covered yet, oldest first
   */
  record Replay<K>(long through, List<K> keys) {
    /** The count of keys, not up to 10,000 of them. */
    @Override
    public String toString() {
      return "Replay[through=" + through + ", " + keys.size() + " keys]";
    }
  }

  /** Calls into the backend that failed (checks answered "maybe", inserts not recorded, deletes not counted). */
  private final LongAdder errors = new LongAdder();
  private final Object lock = new Object();
  /** The failed inserts not covered yet, oldest first; their numbers are above coveredFailedInserts. */
  @GuardedBy("lock")
  private final ArrayDeque<Failed<K>> kept = new ArrayDeque<>();
  /** The number of the latest failed insert whose key was not kept (the buffer was full); 0 if none. */
  @GuardedBy("lock")
  private long droppedThrough;
  /** Written under the lock, after the key is kept, so a build that reads n finds keys 1..n; read anywhere. */
  private volatile long failedInserts;
  /** The failures numbered up to this one are covered; written under the lock, read anywhere. */
  private volatile long coveredFailedInserts;
  private volatile String lastError;

  /** Counts a failed call into the backend. */
  void backendError(Throwable e) {
    errors.increment();
    lastError = GuardStats.describe(e);
  }

  /**
   * Counts an insert of {@code key} the backend could not record, and keeps the key for a replay; the
   * guard is degraded from here on. Call it before anything else about the failure, so no check that
   * follows can answer "absent".
   */
  void insertFailed(K key) {
    synchronized (lock) {
      long number = failedInserts + 1;
      if (kept.size() < KEPT_KEYS) {
        kept.addLast(new Failed<>(number, key));
      } else {
        droppedThrough = number;
      }
      failedInserts = number; // last: whoever reads the new count also finds the key (or droppedThrough)
    }
  }

  /** Failed inserts so far: a build reads it before it registers its filter. */
  long failedInserts() {
    return failedInserts;
  }

  /**
   * What a build adopting another instance's live filter must add to the backend to cover every failure
   * so far: the keys not covered yet (none when the guard is not degraded). Empty if one of those keys
   * was not kept: no replay can cover it, and the build must scan instead.
   */
  Optional<Replay<K>> replay() {
    synchronized (lock) {
      if (droppedThrough > coveredFailedInserts) {
        return Optional.empty();
      }
      return Optional.of(new Replay<>(failedInserts, kept.stream().map(Failed::key).toList()));
    }
  }

  /**
   * The failures numbered up to {@code through} are covered: a published build read that many from
   * {@link #failedInserts()} before it began, or a replay of {@link #replay()} added all of its keys.
   * Their keys are dropped. Never moves back.
   */
  void covered(long through) {
    synchronized (lock) {
      if (through <= coveredFailedInserts) {
        return;
      }
      while (!kept.isEmpty() && kept.peekFirst().number() <= through) {
        kept.removeFirst();
      }
      coveredFailedInserts = through;
    }
  }

  /** True while a failed insert is not covered: every check must answer "maybe". */
  boolean degraded() {
    return failedInserts != coveredFailedInserts;
  }

  /** Keys kept for a replay now. */
  @VisibleForTesting
  int keptKeys() {
    synchronized (lock) {
      return kept.size();
    }
  }

  long errors() {
    return errors.sum();
  }

  /** The latest failure, as "ExceptionClass: message", or null if none ever. */
  String lastError() {
    return lastError;
  }
}
