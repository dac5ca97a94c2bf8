package org.concurrentbloom.guard;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Puts a guard's {@link GuardStats} together from the parts that keep the figures: the check counters,
 * the backend's live filter, the builds, the rebuild loop, the backend failures and the snapshots. Each
 * figure is read on its own, without a lock, as GuardStats says.
 *
 * <p>Threads: {@link #stats} from any thread, any number at once.
 */
final class StatsAssembler {
  private final double targetFpp;
  private final GuardCounters counters;
  private final GuardFilters<?> filters;
  private final GuardBuilds<?> builds;
  private final RebuildLoop loop;
  private final BackendFailures<?> failures;
  private final GuardSnapshots<?> snapshots;
  /** The guard's closed flag, only read here. */
  private final AtomicBoolean closed;

  StatsAssembler(double targetFpp, GuardCounters counters, GuardFilters<?> filters, GuardBuilds<?> builds,
      RebuildLoop loop, BackendFailures<?> failures, GuardSnapshots<?> snapshots, AtomicBoolean closed) {
    this.targetFpp = targetFpp;
    this.counters = counters;
    this.filters = filters;
    this.builds = builds;
    this.loop = loop;
    this.failures = failures;
    this.snapshots = snapshots;
    this.closed = closed;
  }

  /** The figures now. With a shared backend, the filter's are read from it. */
  GuardStats stats() {
    Optional<GuardFilters.Live> live = Optional.empty();
    if (!closed.get()) {
      try {
        live = filters.live();
      } catch (RuntimeException e) {
        // The backend cannot say: reported as no filter live, which is how checks behave meanwhile.
      }
    }
    GuardStats.Values v = new GuardStats.Values();
    v.checks = counters.checks.sum();
    v.definiteNegatives = counters.negatives.sum();
    v.positives = counters.positives();
    v.lookups = counters.lookups.sum();
    v.falsePositives = counters.falsePositives.sum();
    v.observedFpr = counters.observedFpr();
    v.targetFpp = targetFpp;
    v.ready = live.isPresent();
    v.filterCapacity = live.map(GuardFilters.Live::capacity).orElse(0L);
    v.filterCount = live.map(GuardFilters.Live::keys).orElse(0L);
    v.deletesSinceRebuild = live.map(GuardFilters.Live::deletes).orElse(0L);
    v.rebuilds = builds.rebuilds();
    Instant at = builds.lastRebuildAt(); // first: the duration is written before it
    v.lastRebuildDuration = at == null ? Duration.ZERO : builds.lastRebuildDuration();
    v.lastRebuildAt = at;
    v.rebuildFailures = loop.failures;
    v.consecutiveFailures = loop.consecutiveFailures;
    v.lastError = loop.lastError;
    v.backendErrors = failures.errors();
    v.failedInserts = failures.failedInserts();
    v.degraded = failures.degraded();
    v.lastBackendError = failures.lastError();
    v.snapshotFailures = snapshots.failures();
    v.lastSnapshotError = snapshots.lastError();
    return new GuardStats(v);
  }
}
