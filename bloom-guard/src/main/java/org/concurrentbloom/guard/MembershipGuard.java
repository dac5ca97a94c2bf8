package org.concurrentbloom.guard;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.internal.VisibleForTesting;

/**
 * A Bloom filter in front of a source of truth (a database table): answers "definitely absent" without
 * asking the source, and never answers it for a key the source holds.
 *
 * <pre>{@code
 * MembershipGuard<String> emails = MembershipGuard.builder(Funnels.stringFunnel(), keySource)
 *     .expectedInsertions(10_000_000).fpp(0.01)
 *     .snapshotStore(new FileSnapshotStore(Path.of("emails.snapshot")))
 *     .build();
 * if (emails.check(email, db::emailExists)) { return TAKEN; }   // the database is asked only on "maybe"
 * try { db.insertUser(email); } catch (UniqueViolation e) { return TAKEN; }   // the database decides
 * emails.recordInsert(email);                                   // after the commit
 * }</pre>
 *
 * <p><b>A fast path, not a lock.</b> Two concurrent sign-ups of one new address both see "absent"; the
 * source's own constraint (UNIQUE) must decide between them. The guard only saves the lookups that
 * cannot succeed. docs/GUARD.md shows the full pattern.
 *
 * <h2>Design</h2>
 * The filters live in a {@link GuardFilters}: by default {@link LocalFilters}, in this JVM; with a
 * {@link GuardBackend} such as bloom-redis's, in a store every instance of a service shares. A rebuild
 * registers a new filter as pending, scans the source into it while {@code recordInsert} writes to both
 * the pending and the live filter (the dual-write window of Mohan and Narang, "Algorithms for creating
 * indexes for very large tables without quiescing updates", SIGMOD 1992), and publishes it. The
 * {@link GuardFilters} contract, proved for each backend in its class comment and in docs/GUARD.md, makes
 * every recorded insert part of every filter published later. Deleted keys cannot be removed from a
 * Bloom filter, so deletes are counted and, past a threshold, trigger a rebuild; a table that outgrows
 * the filter's capacity triggers one sized up by the growth factor, so the false-positive rate stays
 * near its target. The argument needs the scan to see every commit the application has seen: the key
 * source must read the primary, not a replica that lags behind it.
 *
 * <p>A snapshot holds the filter and the watermark (the largest id or timestamp its scan saw). At start
 * the snapshot is registered as the pending filter, caught up with the keys after its watermark (the
 * same window argument covers inserts recorded meanwhile), and published. With a shared backend, a
 * guard that starts while another instance's filter is live adopts that one instead.
 *
 * <p><b>Backend failures</b> (a shared backend that is unreachable) never become "absent". A check that
 * fails answers "maybe". An insert that cannot be recorded throws, its key is kept (up to 10,000), and
 * from then on this guard answers "maybe" to every check (it is <em>degraded</em>) until the failure is
 * covered: either a rebuild that began after the failure is published (it read the count of failed
 * inserts after the failure was counted, so its scan started after the failed key's commit and contains
 * the key), or this guard adopts a filter another instance rebuilt and first adds every kept key to it,
 * with the call {@code recordInsert} makes (an adoption that cannot, because a key was not kept, scans
 * instead). A failed insert asks for a rebuild at once; the loop retries with backoff while builds fail
 * and for as long as the guard is degraded. {@link BackendFailures} and docs/GUARD.md, "Faults", give
 * the argument.
 *
 * <h2>Threads</h2>
 * {@link #mightExist}, {@link #check}, {@link #recordInsert} and {@link #recordDelete} may be called from
 * any number of threads; with the local backend they take no lock and only read volatile references, add
 * to lock-free filters and bump counters (a shared backend makes one round trip). {@link #rebuildNow()}
 * blocks the caller until a build finishes; builds run one at a time on the guard's own daemon thread
 * ({@code bloom-guard-rebuild-<name>}), which also loads and writes snapshots. {@link #close()} may be
 * called from any thread, once or more; {@link #stats()} and {@link #awaitReady} from any thread.
 *
 * @param <K> the type of key
 */
public final class MembershipGuard<K> implements AutoCloseable {
  private static final Logger LOG = System.getLogger(MembershipGuard.class.getName());

  /**
   * Looks a key up in the source of truth, for {@link #check}.
   *
   * @param <K> the type of key
   * @param <E> the exception the lookup may throw
   */
  @FunctionalInterface
  public interface Lookup<K, E extends Exception> {
    /** True if the source holds {@code key}. */
    boolean exists(K key) throws E;
  }

  // The guard keeps only the fast path and the lifecycle, so each part can be read, and its threads
  // reasoned about, on its own: GuardBuilds (each build and its publication, on the build thread),
  // RebuildLoop (when builds run), GuardSnapshots, BackendFailures and StatsAssembler. start() wires them.
  private final GuardConfig<K> config;
  private final GuardFilters<K> filters;
  private final RebuildLoop loop;
  private final GuardBuilds<K> builds;
  private final GuardSnapshots<K> snapshots;
  private final StatsAssembler stats;
  private final GuardCounters counters;
  private final BackendFailures<K> failures;
  /** Shared with the builds and the stats, which only read it; set once, by close(). */
  private final AtomicBoolean closed;

  private MembershipGuard(GuardConfig<K> config, GuardFilters<K> filters, RebuildLoop loop, GuardBuilds<K> builds,
      GuardSnapshots<K> snapshots, StatsAssembler stats, GuardCounters counters, BackendFailures<K> failures,
      AtomicBoolean closed) {
    this.config = config;
    this.filters = filters;
    this.loop = loop;
    this.builds = builds;
    this.snapshots = snapshots;
    this.stats = stats;
    this.counters = counters;
    this.failures = failures;
    this.closed = closed;
  }

  /**
   * Wires up a guard and queues its first build. Here rather than in the constructor, so that nothing
   * (the backend, the build thread) can reach the guard before it is fully constructed.
   */
  private static <K> MembershipGuard<K> start(GuardConfig<K> config, GuardBackend<K> backend, boolean dualWrite,
      GuardScheduler scheduler) {
    // The backend may report a lost live filter from its own threads as soon as it is open, before the
    // guard exists; such a report needs no answer, since the START build makes a filter live anyway.
    AtomicReference<MembershipGuard<K>> started = new AtomicReference<>();
    GuardSpec<K> spec = config.spec(() -> {
      MembershipGuard<K> guard = started.get();
      if (guard != null) {
        guard.liveLost();
      }
    });
    GuardFilters<K> filters = backend != null ? backend.open(spec) : new LocalFilters<>(spec, dualWrite);
    AtomicBoolean closed = new AtomicBoolean();
    GuardCounters counters = new GuardCounters();
    BackendFailures<K> failures = new BackendFailures<>();
    GuardSnapshots<K> snapshots = new GuardSnapshots<>(config, filters);
    GuardBuilds<K> builds = new GuardBuilds<>(config, filters, snapshots, failures, closed);
    RebuildLoop loop = new RebuildLoop(scheduler != null ? scheduler : GuardScheduler.singleThread(config.name()),
        config.backoff(), config.rebuildInterval(), builds, failures::degraded, LOG, config.name());
    StatsAssembler stats = new StatsAssembler(config.fpp(), counters, filters, builds, loop, failures, snapshots,
        closed);
    MembershipGuard<K> guard = new MembershipGuard<>(config, filters, loop, builds, snapshots, stats, counters,
        failures, closed);
    started.set(guard);
    loop.request(RebuildLoop.Reason.START);
    return guard;
  }

  /**
   * Starts describing a guard over {@code source}, whose keys {@code funnel} hashes.
   *
   * @throws NullPointerException if an argument is null
   */
  public static <K> Builder<K> builder(Funnel<? super K> funnel, KeySource<K> source) {
    return new Builder<>(funnel, source);
  }

  // ---------------------------------------------------------------- checks

  /**
   * Returns false if {@code key} is definitely not in the source (no query needed), true if it might be.
   * Answers true while no filter is live (before the first build, and after {@link #close()}), while the
   * guard is degraded by an insert it could not record, and when a shared backend cannot answer, so a
   * caller that queries the source on true is never wrong.
   *
   * @throws NullPointerException if {@code key} is null
   */
  public boolean mightExist(K key) {
    Objects.requireNonNull(key, "key");
    boolean maybe = closed.get() || failures.degraded() || backendMightContain(key);
    counters.check(maybe);
    return maybe;
  }

  private boolean backendMightContain(K key) {
    try {
      return filters.mightContain(key);
    } catch (RuntimeException e) {
      backendFailed("check a key in", e);
      return true;
    }
  }

  /**
   * Answers whether the source holds {@code key}, asking {@code lookup} only when {@link #mightExist}
   * says maybe, and counts the outcome: a lookup that finds nothing is a confirmed false positive.
   *
   * @throws NullPointerException if an argument is null
   * @throws E if the lookup fails (nothing is counted for it then, beyond the check)
   */
  public <E extends Exception> boolean check(K key, Lookup<? super K, E> lookup) throws E {
    Objects.requireNonNull(lookup, "lookup");
    if (!mightExist(key)) {
      counters.checkedNegatives.increment();
      return false;
    }
    boolean exists = lookup.exists(key);
    counters.lookups.increment();
    if (!exists) {
      counters.falsePositives.increment();
    }
    return exists;
  }

  // ---------------------------------------------------------------- recording changes

  /**
   * Records that {@code key} was inserted into the source. Call it after the insert committed, never
   * before: a rebuild whose scan ran between this call and the commit would miss the row and drop the
   * key. From its return on, {@link #mightExist} answers true for {@code key}, across rebuilds, and with
   * a shared backend on every instance. Ignored after {@link #close()}.
   *
   * @throws NullPointerException if {@code key} is null
   * @throws RuntimeException if a shared backend could not record the key (bloom-redis throws its
   *     {@code RedisFilterException}). The key is then not recorded: this guard answers "maybe" to every
   *     check (it is degraded) until a rebuild that began after the failure is live, or until it adopts
   *     another instance's rebuild and has added the key to it; it asks for a rebuild at once, and
   *     retries while degraded. Other instances learn the key from that rebuild or that add, and may
   *     answer "absent" for it until then. The local backend never throws.
   */
  public void recordInsert(K key) {
    Objects.requireNonNull(key, "key");
    if (closed.get()) {
      return;
    }
    boolean outgrown;
    try {
      outgrown = filters.add(key);
    } catch (RuntimeException e) {
      failures.insertFailed(key); // first: from here on every check answers "maybe"
      backendFailed("record an insert into", e);
      loop.request(RebuildLoop.Reason.FAILED_INSERT);
      throw e;
    }
    if (outgrown) {
      LOG.log(Level.DEBUG, () -> "guard " + config.name() + ": the live filter passed its capacity; rebuilding "
          + config.growthFactor() + "x larger");
      loop.request(RebuildLoop.Reason.GROWTH);
    }
  }

  /**
   * Records that {@code key} was deleted from the source. A Bloom filter cannot forget a key, so the
   * guard keeps answering "maybe" for it (sending its checks to the source) until the next rebuild;
   * enough deletes trigger that rebuild (see {@link Builder#rebuildAfterDeletes} and
   * {@link Builder#rebuildAfterDeleteFraction}). A shared backend that cannot count it is counted in
   * {@link GuardStats#backendErrors()}; the only cost is a later rebuild.
   *
   * @throws NullPointerException if {@code key} is null
   */
  public void recordDelete(K key) {
    Objects.requireNonNull(key, "key");
    if (closed.get()) {
      return;
    }
    boolean reached;
    try {
      reached = filters.countDelete();
    } catch (RuntimeException e) {
      backendFailed("count a delete in", e);
      return;
    }
    if (reached) {
      LOG.log(Level.DEBUG, () -> "guard " + config.name()
          + ": deletes since the last build reached the threshold; rebuilding");
      loop.request(RebuildLoop.Reason.DELETES);
    }
  }

  private void backendFailed(String what, RuntimeException e) {
    failures.backendError(e);
    LOG.log(Level.DEBUG, () -> "guard " + config.name() + ": could not " + what + " the backend", e);
  }

  /** A shared backend found its live filter gone: build one (or adopt one another instance built). */
  private void liveLost() {
    if (!closed.get()) {
      LOG.log(Level.WARNING, () -> "guard " + config.name() + ": the shared live filter is gone; building a new one");
      loop.request(RebuildLoop.Reason.LOST);
    }
  }

  // ---------------------------------------------------------------- rebuilds

  /**
   * Rebuilds the filter from a full scan of the source and returns once it is live. Joins a rebuild
   * that is queued but not started; one already scanning does not count, since its scan may predate
   * this call.
   *
   * @throws RebuildException if the build failed (the previous filter stays live and the guard retries
   *     in the background), the guard is closed, or the calling thread was interrupted while waiting
   * @throws IllegalStateException if called from the guard's own build thread (from a key source)
   */
  public void rebuildNow() {
    String name = config.name();
    if (loop.onBuildThread()) {
      throw new IllegalStateException("rebuildNow() called from guard " + name + "'s build thread: it would "
          + "wait for itself");
    }
    CompletableFuture<Void> build = requestRebuild();
    try {
      build.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RebuildException("interrupted while waiting for guard " + name + " to rebuild", e);
    } catch (ExecutionException e) {
      throw new RebuildException("guard " + name + " could not rebuild: " + e.getCause(), e.getCause());
    }
  }

  /** What {@link #rebuildNow()} waits for: the queued full rebuild, joined or newly queued. */
  CompletableFuture<Void> requestRebuild() {
    return loop.request(RebuildLoop.Reason.REQUESTED);
  }

  /**
   * Waits up to {@code timeout} for the first filter to be live; returns true if one is. Until then the
   * guard works, answering "maybe" to every check.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public boolean awaitReady(Duration timeout) throws InterruptedException {
    return builds.awaitReady(timeout);
  }

  /** The guard's counters now. With a shared backend, the filter's figures are read from it. */
  public GuardStats stats() {
    return stats.stats();
  }

  /** The name given to the builder: in logs, metric tags and snapshots. */
  public String name() {
    return config.name();
  }

  /**
   * Stops the guard: a queued rebuild is dropped, a running one is interrupted (and awaited a few
   * seconds), and the live filter is written to the snapshot store, if any, so a restart has the least
   * to catch up. Afterwards every check answers "maybe" and recorded changes are ignored. A shared
   * backend's filters stay in place for the other instances. Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    Duration grace = config.closeGrace();
    if (loop.close(grace)) { // the build thread stopped: no snapshot write can overlap this one
      snapshots.write();
    } else if (snapshots.enabled()) {
      snapshots.finalWriteSkipped("close(): a build did not stop within closeTimeout " + grace);
    } else {
      LOG.log(Level.WARNING, () -> "guard " + config.name() + ": close(): a build did not stop within closeTimeout "
          + grace);
    }
    filters.close();
  }

  @Override
  public String toString() {
    return "MembershipGuard[" + config.name() + ", " + stats() + "]";
  }

  /** The live generation of the local backend. */
  @VisibleForTesting
  Generation<K> liveForTest() {
    return ((LocalFilters<K>) filters).liveForTest();
  }

  // ---------------------------------------------------------------- builder

  /** Describes a guard. Not thread-safe; the guard it builds is. */
  public static final class Builder<K> extends GuardSettings<K> {
    private Builder(Funnel<? super K> funnel, KeySource<K> source) {
      super(funnel, source);
    }

    @Override
    Builder<K> self() {
      return this;
    }

    /** Runs builds on this scheduler instead of the guard's own thread. */
    @VisibleForTesting
    Builder<K> scheduler(GuardScheduler scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    /** Turns the dual write off, to prove that the tests notice the inserts it saves. */
    @VisibleForTesting
    Builder<K> dualWriteForTest(boolean on) {
      this.dualWrite = on;
      return this;
    }

    /**
     * Builds the guard and starts its first build in the background (from the snapshot if one is valid,
     * else a full scan). Until that is live, every check answers "maybe"; see
     * {@link MembershipGuard#awaitReady}.
     *
     * @throws IllegalStateException if {@link #expectedInsertions} was not set
     * @throws IllegalArgumentException if no filter for {@code expectedInsertions} at {@code fpp} can
     *     exist: past the largest {@code long[]} (about 2^37 bits) or, for the default backend in this
     *     JVM, past half of {@link Runtime#maxMemory()} (a rebuild holds two filters at once); the
     *     message names the size and the limit. Or if the {@linkplain #backend backend} cannot serve
     *     this configuration (the message says why)
     */
    public MembershipGuard<K> build() {
      if (expectedInsertions < 0) {
        throw new IllegalStateException("expectedInsertions(n) must be set before build()");
      }
      FilterBudget budget = FilterBudget.of(fpp, layout, backend == null ? Runtime.getRuntime().maxMemory() : -1);
      budget.check(expectedInsertions, fpp);
      GuardConfig<K> config = new GuardConfig<>(name, funnel, source, expectedInsertions, fpp, layout, growthFactor,
          deleteCountThreshold, deleteFractionThreshold, rebuildInterval, new Backoff(retryInitial, retryMax),
          snapshotStore, closeGrace, budget);
      return start(config, backend, dualWrite, scheduler);
    }
  }
}
