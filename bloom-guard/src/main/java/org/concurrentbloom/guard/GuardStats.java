package org.concurrentbloom.guard;

import java.time.Duration;
import java.time.Instant;

/**
 * A snapshot of a {@link MembershipGuard}'s counters, taken by {@link MembershipGuard#stats()}. The
 * counters are cumulative since the guard was built; each is read on its own, so under load they may
 * be a few operations apart from each other.
 *
 * @param checks calls of {@code mightExist} (including those made by {@code check})
 * @param definiteNegatives checks answered "definitely absent": the database queries saved
 * @param positives checks answered "might exist" (every check while no filter is live)
 * @param lookups database lookups made by {@code check} after a "might exist"
 * @param falsePositives lookups that found the key absent: confirmed false positives, stale entries of
 *     deleted keys included
 * @param observedFpr falsePositives / (falsePositives + the definite negatives of {@code check}): the
 *     fraction of absent keys checked through {@code check} that still went to the database; NaN before
 *     the first such key
 * @param targetFpp the false-positive probability the guard was configured for
 * @param ready true while a filter is live; false before the first one and after {@code close()},
 *     when every check answers "might exist"
 * @param filterCapacity the expected insertions the live filter was sized for (0 if none)
 * @param filterCount keys the live filter holds: rows its scan found plus inserts recorded since (those
 *     recorded during its scan may count twice); 0 if none
 * @param deletesSinceRebuild {@code recordDelete} calls since the live filter was built
 * @param rebuilds filters built and published (snapshot loads included)
 * @param lastRebuildDuration how long the last published build took, from start to swap; ZERO if none
 * @param lastRebuildAt when the last build was published; null if none
 * @param rebuildFailures builds that failed in total
 * @param consecutiveFailures builds that failed since the last success (0 when the last one succeeded)
 * @param lastError the most recent build failure, as "ExceptionClass: message"; null if none ever
 * @param backendErrors calls a shared backend failed: checks answered "maybe" because of it, inserts it
 *     could not record, deletes it could not count (always 0 with the local backend)
 * @param failedInserts {@code recordInsert} calls that threw because the backend could not record the key
 * @param degraded true while an insert that could not be recorded is not yet covered by a rebuild that
 *     began after it: every check answers "maybe" meanwhile
 * @param lastBackendError the most recent backend failure, as "ExceptionClass: message"; null if none ever
 * @param snapshotFailures snapshots that could not be written (the previous one is kept)
 * @param lastSnapshotError the most recent snapshot write failure, as "ExceptionClass: message"; null if
 *     none ever
 */
public record GuardStats(
    long checks,
    long definiteNegatives,
    long positives,
    long lookups,
    long falsePositives,
    double observedFpr,
    double targetFpp,
    boolean ready,
    long filterCapacity,
    long filterCount,
    long deletesSinceRebuild,
    long rebuilds,
    Duration lastRebuildDuration,
    Instant lastRebuildAt,
    long rebuildFailures,
    long consecutiveFailures,
    String lastError,
    long backendErrors,
    long failedInserts,
    boolean degraded,
    String lastBackendError,
    long snapshotFailures,
    String lastSnapshotError) {

  /** Database queries saved per check, in [0, 1]; NaN before the first check. */
  public double savedFraction() {
    return checks == 0 ? Double.NaN : (double) definiteNegatives / checks;
  }
}
