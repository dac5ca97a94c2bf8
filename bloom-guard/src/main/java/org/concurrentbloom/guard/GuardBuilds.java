package org.concurrentbloom.guard;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What one build of a guard does, once {@link RebuildLoop} has decided to run it: adopt a filter another
 * instance published (replaying first the inserts this guard failed to record, see
 * {@link BackendFailures}), or load and catch up the snapshot, or scan the source into a new filter;
 * then publish it through {@link GuardFilters} (whose contract keeps every recorded insert), cover the
 * failed inserts counted before it began, write the snapshot and release whoever waits for the first
 * filter. {@link MembershipGuard}'s class comment gives the design.
 *
 * <p>Threads: {@link #run} on the guard's build thread only, which {@link RebuildLoop} keeps to one
 * build at a time, so the build figures have one writer; they are volatile because their getters
 * ({@link #rebuilds()} and the next two) and {@link #awaitReady} may be called from any thread.
 */
final class GuardBuilds<K> implements RebuildLoop.Build {
  /** MembershipGuard's logger, not this class's: the one applications configure and tests capture. */
  private static final Logger LOG = System.getLogger(MembershipGuard.class.getName());
  /** Immediate re-scans after a scan outgrew its filter; see resizeAfterScan. */
  private static final int RESIZE_ROUNDS = 2;

  private final GuardConfig<K> config;
  private final GuardFilters<K> filters;
  private final GuardSnapshots<K> snapshots;
  private final BackendFailures<K> failures;
  /** The guard's closed flag; set by close(), only read here. */
  private final AtomicBoolean closed;
  private final CompletableFuture<Void> ready = new CompletableFuture<>();

  private volatile long rebuilds;
  private volatile Instant lastRebuildAt;
  private volatile long lastRebuildNanos;

  GuardBuilds(GuardConfig<K> config, GuardFilters<K> filters, GuardSnapshots<K> snapshots,
      BackendFailures<K> failures, AtomicBoolean closed) {
    this.config = config;
    this.filters = filters;
    this.snapshots = snapshots;
    this.failures = failures;
    this.closed = closed;
  }

  /**
   * One build. A full scan builds a new filter; otherwise an existing live filter (another instance's)
   * is adopted, else the snapshot is loaded and caught up, else the source scanned. An adoption that
   * cannot replay every failed insert scans instead.
   */
  @Override
  public void run(RebuildLoop loop, boolean fullScan) throws Exception {
    if (closed.get()) {
      throw new IllegalStateException("guard " + config.name() + " is closed");
    }
    long start = System.nanoTime();
    long failedBefore = failures.failedInserts(); // before anything is registered: see BackendFailures
    boolean scan = fullScan;
    if (!scan) {
      Adoption adoption = adopt(loop, filters.live());
      if (adoption == Adoption.ADOPTED) {
        return;
      }
      scan = adoption == Adoption.SCAN_INSTEAD;
    }
    KeySource<K> source = config.source();
    try (GuardFilters.Rebuild<K> rebuild = filters.rebuild()) {
      Optional<GuardFilters.Live> current = filters.live(); // again: a shared lock may have waited for a build
      if (!scan) {
        Adoption adoption = adopt(loop, current);
        if (adoption == Adoption.ADOPTED) {
          return;
        }
        scan = adoption == Adoption.SCAN_INSTEAD;
      }
      if (!scan && snapshots.enabled()) {
        Optional<SnapshotCodec.Snapshot<K>> snapshot = snapshots.load();
        if (snapshot.isPresent()) {
          GuardFilters.Candidate<K> next = rebuild.begin(snapshot.get().filter(), snapshot.get().watermark());
          long after = snapshot.get().watermark().orElse(Long.MIN_VALUE);
          if (publish(loop, next, start, failedBefore, () -> source.scanAfter(after, next::add),
              "snapshot caught up after watermark " + after)) {
            loop.request(RebuildLoop.Reason.GROWTH);
          }
          return;
        }
      }
      GuardFilters.Candidate<K> next = rebuild.begin(nextCapacity(current));
      if (!publish(loop, next, start, failedBefore, () -> source.scanAll(next::add), "full scan")) {
        return;
      }
    }
    resizeAfterScan(loop);
  }

  /**
   * The scan just published found more keys than its filter was sized for (rows added without
   * recordInsert, such as a bulk import). Scans again at once, in the same build, into a filter sized
   * for what it found, so that a rebuildNow() returns with a filter that meets its fpp for the rows its
   * scan saw rather than only queueing a resize. A source still growing faster than the rounds gets
   * the usual queued growth rebuild.
   */
  private void resizeAfterScan(RebuildLoop loop) throws Exception {
    KeySource<K> source = config.source();
    for (int round = 1; round <= RESIZE_ROUNDS; round++) {
      Optional<GuardFilters.Live> live = filters.live();
      if (live.isPresent() && live.get().capacity() >= config.budget().maxCapacity()) {
        return; // at the budget: a larger filter cannot be built, nextCapacity warned
      }
      long start = System.nanoTime();
      long failedBefore = failures.failedInserts();
      try (GuardFilters.Rebuild<K> rebuild = filters.rebuild()) {
        long capacity = nextCapacity(filters.live());
        GuardFilters.Candidate<K> next = rebuild.begin(capacity);
        if (!publish(loop, next, start, failedBefore, () -> source.scanAll(next::add),
            "full scan resized to " + capacity + " keys")) {
          return;
        }
      }
    }
    loop.request(RebuildLoop.Reason.GROWTH);
  }

  /** What {@link #adopt} did. */
  private enum Adoption {
    /** No filter is live: the build goes on to the snapshot or a scan. */
    NONE_LIVE,
    /** The live filter is this guard's now, and covers every failed insert counted before. */
    ADOPTED,
    /** A filter is live, but a failed insert's key was not kept, so only a scan can cover it. */
    SCAN_INSTEAD
  }

  /**
   * Takes {@code live}, if present, as this guard's filter: another instance published it. That filter
   * may lack the keys of inserts this guard failed to record (its scan may have begun before they
   * committed), so they are added to it first; only when all of them are in does the adoption end the
   * degradation ({@link BackendFailures}). A key that cannot be added fails the build, which is retried.
   *
   * @throws RuntimeException if the backend could not add a replayed key; the guard stays degraded
   */
  private Adoption adopt(RebuildLoop loop, Optional<GuardFilters.Live> live) {
    if (live.isEmpty()) {
      return Adoption.NONE_LIVE;
    }
    Optional<BackendFailures.Replay<K>> replay = failures.replay();
    if (replay.isEmpty()) {
      LOG.log(Level.DEBUG, () -> "guard " + config.name() + ": more inserts failed than the "
          + BackendFailures.KEPT_KEYS + " kept to replay; scanning the source instead of adopting the live filter");
      return Adoption.SCAN_INSTEAD;
    }
    List<K> keys = replay.get().keys();
    boolean outgrown = false;
    for (K key : keys) {
      outgrown |= filters.add(key); // the call recordInsert makes: from its return on, the key is in every live filter
    }
    // The streak ends before the degradation does, so no stats reader sees a healthy guard with failures.
    loop.published();
    failures.covered(replay.get().through());
    LOG.log(Level.DEBUG, () -> "guard " + config.name() + ": using the live filter another instance published ("
        + live.get() + ")" + (keys.isEmpty() ? "" : ", after replaying " + keys.size() + " failed inserts into it"));
    ready.complete(null);
    if (outgrown) {
      loop.request(RebuildLoop.Reason.GROWTH);
    }
    return Adoption.ADOPTED;
  }

  /** A scan of the source into the filter being built. */
  @FunctionalInterface
  private interface Scan {
    ScanResult run() throws Exception;
  }

  /**
   * Scans into the registered {@code next} and publishes it; afterwards writes the snapshot. Returns true
   * if the published filter already holds more keys than its capacity.
   */
  @SuppressWarnings("NonAtomicVolatileUpdate") // builds run on the scheduler's one thread
  private boolean publish(RebuildLoop loop, GuardFilters.Candidate<K> next, long start, long failedBefore,
      Scan scan, String how) throws Exception {
    ScanResult result = scan.run();
    if (closed.get()) {
      throw new IllegalStateException("guard " + config.name() + " was closed during the build");
    }
    boolean outgrown = next.publish(result);
    loop.published(); // before the degradation ends, as in adopt
    failures.covered(failedBefore);
    long nanos = System.nanoTime() - start;
    lastRebuildNanos = nanos;
    lastRebuildAt = Instant.now(); // after the duration, so a reader that sees a time sees a duration
    rebuilds++;
    LOG.log(Level.DEBUG, () -> "guard " + config.name() + ": published a filter from a " + how + " of "
        + result.keys() + " keys in " + nanos / 1_000_000 + " ms");
    snapshots.write();
    ready.complete(null); // last, so whoever waited for it also sees the snapshot and the stats
    return outgrown;
  }

  /**
   * The capacity of the next filter: never below the configured or current capacity, and the growth
   * factor times the live count once the live filter holds more keys than it was sized for.
   */
  private long nextCapacity(Optional<GuardFilters.Live> live) {
    long capacity = config.expectedInsertions();
    if (live.isPresent()) {
      GuardFilters.Live current = live.get();
      capacity = Math.max(capacity, current.capacity());
      long count = current.keys();
      if (count > current.capacity()) {
        capacity = Math.max(capacity, (long) Math.min(Long.MAX_VALUE / 2.0, Math.ceil(count * config.growthFactor())));
      }
    }
    long max = config.budget().maxCapacity();
    if (capacity > max) {
      long wanted = capacity;
      LOG.log(Level.WARNING, () -> "guard " + config.name() + ": a filter for " + wanted + " keys would not fit;"
          + " building one for " + max + " keys, whose false-positive rate will exceed " + config.fpp());
      capacity = max;
    }
    return capacity;
  }

  /**
   * Waits up to {@code timeout} for the first filter to be live; returns true if one is.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  boolean awaitReady(Duration timeout) throws InterruptedException {
    try {
      ready.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new AssertionError("the ready future never fails", e);
    }
  }

  /** Filters published (snapshot loads included). */
  long rebuilds() {
    return rebuilds;
  }

  /** When the last build was published, or null if none was. */
  Instant lastRebuildAt() {
    return lastRebuildAt;
  }

  /** How long the last published build took; read it after a non-null {@link #lastRebuildAt()}. */
  Duration lastRebuildDuration() {
    return Duration.ofNanos(lastRebuildNanos);
  }
}
