package org.concurrentbloom.guard;

import java.time.Duration;
import org.concurrentbloom.FilterType;
import org.concurrentbloom.Funnel;

/**
 * The settings of one guard, as {@link MembershipGuard.Builder#build()} found them (already checked).
 * A copy rather than the builder itself, so a builder reused for another guard cannot change a guard
 * already built. Immutable; any thread.
 *
 * @param <K> the type of key
 * @param name the guard's name
 * @param funnel how keys are hashed
 * @param source the source of truth
 * @param expectedInsertions the configured capacity of the first filter
 * @param fpp the target false-positive probability
 * @param layout the type of every filter: standard or blocked
 * @param growthFactor how much larger a filter that outgrew its capacity is rebuilt
 * @param deleteCountThreshold deletes after which a rebuild is due
 * @param deleteFractionThreshold ... or deletes as a fraction of the filter's keys
 * @param rebuildInterval the period of scheduled rebuilds, or null for none
 * @param backoff the delays between retries of a failed build
 * @param snapshotStore where snapshots go, or null for none
 * @param closeGrace how long close() waits for a running build
 * @param budget how large a filter may be
 */
record GuardConfig<K>(
    String name,
    Funnel<? super K> funnel,
    KeySource<K> source,
    long expectedInsertions,
    double fpp,
    FilterType layout,
    double growthFactor,
    long deleteCountThreshold,
    double deleteFractionThreshold,
    Duration rebuildInterval,
    Backoff backoff,
    SnapshotStore snapshotStore,
    Duration closeGrace,
    FilterBudget budget) {

  /** What the backend is told about this guard; {@code onLiveLost} as in {@link GuardSpec}. */
  GuardSpec<K> spec(Runnable onLiveLost) {
    return new GuardSpec<>(name, funnel, expectedInsertions, fpp, layout, deleteCountThreshold,
        deleteFractionThreshold, onLiveLost);
  }
}
