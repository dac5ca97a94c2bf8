package org.concurrentbloom.guard;

import org.concurrentbloom.FilterType;
import org.concurrentbloom.Funnel;

/**
 * What a {@link GuardBackend} is told about the guard whose filters it opens: the builder's settings,
 * and a callback for a shared backend that finds the live filter gone.
 *
 * @param <K> the type of key
 * @param name the guard's name
 * @param funnel how keys are hashed
 * @param expectedInsertions the configured capacity of the first filter
 * @param fpp the target false-positive probability of every filter
 * @param layout the type of every filter: {@link FilterType#STANDARD} or {@link FilterType#BLOCKED}
 * @param deleteCountThreshold a filter wants a rebuild after this many deletes
 * @param deleteFractionThreshold ... or after deletes reach this fraction of its keys
 * @param onLiveLost run (from any thread) when the backend finds that the live filter vanished, for
 *     instance because Redis lost its data; the guard then builds a new one
 */
public record GuardSpec<K>(
    String name,
    Funnel<? super K> funnel,
    long expectedInsertions,
    double fpp,
    FilterType layout,
    long deleteCountThreshold,
    double deleteFractionThreshold,
    Runnable onLiveLost) {

  /** True if {@code deletes} deletes against a filter of {@code keys} keys reach a threshold. */
  public boolean deleteThresholdReached(long deletes, long keys) {
    return deletes >= deleteCountThreshold || deletes >= deleteFractionThreshold * Math.max(1, keys);
  }
}
