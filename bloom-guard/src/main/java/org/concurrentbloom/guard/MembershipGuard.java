package org.concurrentbloom.guard;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.concurrentbloom.Funnel;

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
 * fails answers "maybe". An insert that cannot be recorded throws, and from then on this guard answers
 * "maybe" to every check (it is <em>degraded</em>) until a rebuild that began after the failure is
 * published: such a rebuild read the count of failed inserts after the failure was counted, so its
 * scan started after the failed key's commit and contains the key. A failed insert asks for that rebuild at
 * once; the loop retries it with backoff while the backend is down.
 *
 * <h2>Threads</h2>
 * {@link #mightExist}, {@link #check}, {@link #recordInsert} and {@link #recordDelete} may be called from
 * any number of threads; with the local backend they take no lock and only read volatile references, add
 * to lock-free filters and bump counters (a shared backend makes one round trip). {@link #rebuildNow()}
 * blocks the caller until a build finishes; builds run one at a time on the guard's own daemon thread
 * ({@code bloom-guard-rebuild-<name>}), which also loads and writes snapshots. {@link #close()} may be
 * called from any thread, once or more.
 *
 * @param <K> the type of key
 */
public final class MembershipGuard<K> implements AutoCloseable {
  private static final Logger LOG = System.getLogger(MembershipGuard.class.getName());
  /** Immediate re-scans after a scan outgrew its filter; see resizeAfterScan. */
  private static final int RESIZE_ROUNDS = 2;

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

  private final String name;
  private final Funnel<? super K> funnel;
  private final KeySource<K> source;
  private final long configuredInsertions;
  private final double fpp;
  private final boolean blocked;
  private final double growthFactor;
  private final SnapshotStore snapshotStore;
  private final Duration closeGrace;
  private final FilterBudget budget;
  private final GuardFilters<K> filters;
  private final RebuildLoop loop;
  private final GuardCounters counters = new GuardCounters();
  private final CompletableFuture<Void> ready = new CompletableFuture<>();
  private volatile boolean closed;

  /** recordInsert calls the backend failed; see "Backend failures" in the class comment. */
  private final AtomicLong failedInserts = new AtomicLong();
  /** failedInserts as read by the start of the last published build: those failures are covered. */
  private volatile long coveredFailedInserts;
  private volatile String lastBackendError;
  private final LongAdder snapshotFailures = new LongAdder();
  private volatile String lastSnapshotError;

  // Written by the build thread only.
  private volatile long rebuilds;
  private volatile Instant lastRebuildAt;
  private volatile long lastRebuildNanos;

  private MembershipGuard(Builder<K> b) {
    this.name = b.name;
    this.funnel = b.funnel;
    this.source = b.source;
    this.configuredInsertions = b.expectedInsertions;
    this.fpp = b.fpp;
    this.blocked = b.blocked;
    this.growthFactor = b.growthFactor;
    this.snapshotStore = b.snapshotStore;
    this.closeGrace = b.closeGrace;
    this.budget = b.budget;
    GuardSpec<K> spec = new GuardSpec<>(name, funnel, configuredInsertions, fpp, blocked, b.deleteCountThreshold,
        b.deleteFractionThreshold, this::liveLost);
    this.filters = b.backend != null ? b.backend.open(spec) : new LocalFilters<>(spec, b.dualWrite);
    GuardScheduler scheduler = b.scheduler != null ? b.scheduler : GuardScheduler.singleThread(name);
    this.loop = new RebuildLoop(scheduler, new Backoff(b.retryInitial, b.retryMax), b.rebuildInterval,
        this::build, LOG, name);
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
    boolean maybe = closed || degraded() || backendMightContain(key);
    counters.check(maybe);
    return maybe;
  }

  private boolean degraded() {
    return failedInserts.get() != coveredFailedInserts;
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
   *     check until a rebuild that began after the failure is live, and asks for one at once; other
   *     instances learn the key from that rebuild. The local backend never throws.
   */
  public void recordInsert(K key) {
    Objects.requireNonNull(key, "key");
    if (closed) {
      return;
    }
    boolean outgrown;
    try {
      outgrown = filters.add(key);
    } catch (RuntimeException e) {
      failedInserts.incrementAndGet(); // first: from here on every check answers "maybe"
      backendFailed("record an insert into", e);
      loop.request(RebuildLoop.Reason.FAILED_INSERT);
      throw e;
    }
    if (outgrown) {
      LOG.log(Level.DEBUG, () -> "guard " + name + ": the live filter passed its capacity; rebuilding "
          + growthFactor + "x larger");
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
    if (closed) {
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
      LOG.log(Level.DEBUG, () -> "guard " + name + ": deletes since the last build reached the threshold; rebuilding");
      loop.request(RebuildLoop.Reason.DELETES);
    }
  }

  private void backendFailed(String what, RuntimeException e) {
    counters.backendErrors.increment();
    lastBackendError = GuardStats.describe(e);
    LOG.log(Level.DEBUG, () -> "guard " + name + ": could not " + what + " the backend", e);
  }

  /** A shared backend found its live filter gone: build one (or adopt one another instance built). */
  private void liveLost() {
    if (!closed && loop != null) {
      LOG.log(Level.WARNING, () -> "guard " + name + ": the shared live filter is gone; building a new one");
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
    try {
      ready.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new AssertionError("the ready future never fails", e);
    }
  }

  /**
   * One build, on the build thread. A full scan builds a new filter; otherwise an existing live filter
   * (another instance's) is adopted, else the snapshot is loaded and caught up, else the source scanned.
   */
  private void build(boolean fullScan) throws Exception {
    if (closed) {
      throw new IllegalStateException("guard " + name + " is closed");
    }
    long start = System.nanoTime();
    long failedBefore = failedInserts.get(); // before anything is registered: see "Backend failures"
    if (!fullScan && adopt(filters.live())) {
      return;
    }
    try (GuardFilters.Rebuild<K> rebuild = filters.rebuild()) {
      Optional<GuardFilters.Live> current = filters.live(); // again: a shared lock may have waited for a build
      if (!fullScan && adopt(current)) {
        return;
      }
      if (!fullScan && snapshotStore != null) {
        Optional<SnapshotCodec.Snapshot<K>> snapshot = loadSnapshot();
        if (snapshot.isPresent()) {
          GuardFilters.Candidate<K> next = rebuild.begin(snapshot.get().filter(), snapshot.get().watermark());
          long after = snapshot.get().watermark().orElse(Long.MIN_VALUE);
          if (publish(next, start, failedBefore, () -> source.scanAfter(after, next::add),
              "snapshot caught up after watermark " + after)) {
            loop.request(RebuildLoop.Reason.GROWTH);
          }
          return;
        }
      }
      GuardFilters.Candidate<K> next = rebuild.begin(nextCapacity(current));
      if (!publish(next, start, failedBefore, () -> source.scanAll(next::add), "full scan")) {
        return;
      }
    }
    resizeAfterScan();
  }

  /**
   * The scan just published found more keys than its filter was sized for (rows added without
   * recordInsert, such as a bulk import). Scans again at once, in the same build, into a filter sized
   * for what it found, so that a rebuildNow() returns with a filter that meets its fpp for the rows its
   * scan saw rather than only queueing a resize. A source still growing faster than the rounds gets
   * the usual queued growth rebuild.
   */
  private void resizeAfterScan() throws Exception {
    for (int round = 1; round <= RESIZE_ROUNDS; round++) {
      Optional<GuardFilters.Live> live = filters.live();
      if (live.isPresent() && live.get().capacity() >= budget.maxCapacity()) {
        return; // at the budget: a larger filter cannot be built, nextCapacity warned
      }
      long start = System.nanoTime();
      long failedBefore = failedInserts.get();
      try (GuardFilters.Rebuild<K> rebuild = filters.rebuild()) {
        long capacity = nextCapacity(filters.live());
        GuardFilters.Candidate<K> next = rebuild.begin(capacity);
        if (!publish(next, start, failedBefore, () -> source.scanAll(next::add),
            "full scan resized to " + capacity + " keys")) {
          return;
        }
      }
    }
    loop.request(RebuildLoop.Reason.GROWTH);
  }

  /** Takes {@code live}, if present, as this guard's filter: another instance published it. */
  private boolean adopt(Optional<GuardFilters.Live> live) {
    if (live.isEmpty()) {
      return false;
    }
    LOG.log(Level.DEBUG, () -> "guard " + name + ": using the live filter another instance published ("
        + live.get() + ")");
    loop.published();
    ready.complete(null);
    return true;
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
  private boolean publish(GuardFilters.Candidate<K> next, long start, long failedBefore, Scan scan, String how)
      throws Exception {
    ScanResult result = scan.run();
    if (closed) {
      throw new IllegalStateException("guard " + name + " was closed during the build");
    }
    boolean outgrown = next.publish(result);
    coveredFailedInserts = failedBefore; // builds run one at a time, so this never moves back
    long nanos = System.nanoTime() - start;
    lastRebuildNanos = nanos;
    lastRebuildAt = Instant.now();
    rebuilds++;
    LOG.log(Level.DEBUG, () -> "guard " + name + ": published a filter from a " + how + " of " + result.keys()
        + " keys in " + nanos / 1_000_000 + " ms");
    writeSnapshot();
    loop.published();
    ready.complete(null); // last, so whoever waited for it also sees the snapshot and the stats
    return outgrown;
  }

  /**
   * The capacity of the next filter: never below the configured or current capacity, and the growth
   * factor times the live count once the live filter holds more keys than it was sized for.
   */
  private long nextCapacity(Optional<GuardFilters.Live> live) {
    long capacity = configuredInsertions;
    if (live.isPresent()) {
      GuardFilters.Live current = live.get();
      capacity = Math.max(capacity, current.capacity());
      long count = current.keys();
      if (count > current.capacity()) {
        capacity = Math.max(capacity, (long) Math.min(Long.MAX_VALUE / 2, Math.ceil(count * growthFactor)));
      }
    }
    long max = budget.maxCapacity();
    if (capacity > max) {
      long wanted = capacity;
      LOG.log(Level.WARNING, () -> "guard " + name + ": a filter for " + wanted + " keys would not fit; building"
          + " one for " + max + " keys, whose false-positive rate will exceed " + fpp);
      capacity = max;
    }
    return capacity;
  }

  // ---------------------------------------------------------------- snapshots

  /** The stored snapshot if it is valid, of this guard's configuration and can be caught up; logs why not. */
  private Optional<SnapshotCodec.Snapshot<K>> loadSnapshot() {
    SnapshotCodec.Snapshot<K> s;
    Optional<InputStream> stream;
    try {
      stream = snapshotStore.read();
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, () -> "guard " + name + ": cannot open the snapshot in " + snapshotStore
          + "; rebuilding from the source", e);
      return Optional.empty();
    }
    if (stream.isEmpty()) {
      LOG.log(Level.DEBUG, () -> "guard " + name + ": no snapshot in " + snapshotStore + "; building from the source");
      return Optional.empty();
    }
    try (InputStream in = stream.get()) {
      s = SnapshotCodec.read(in, funnel);
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, () -> "guard " + name + ": ignoring the snapshot in " + snapshotStore + ", it is "
          + "not valid (" + e.getMessage() + "); rebuilding from the source");
      return Optional.empty();
    }
    String mismatch = mismatch(s);
    if (mismatch != null) {
      LOG.log(Level.WARNING, () -> "guard " + name + ": ignoring the snapshot in " + snapshotStore + ": "
          + mismatch + "; rebuilding from the source");
      return Optional.empty();
    }
    return Optional.of(s);
  }

  /** Why snapshot {@code s} cannot serve this guard, or null if it can. */
  private String mismatch(SnapshotCodec.Snapshot<K> s) {
    if (!s.name().equals(name)) {
      return "it belongs to guard \"" + s.name() + "\", not \"" + name + "\"";
    }
    if (s.configuredInsertions() != configuredInsertions || Double.compare(s.configuredFpp(), fpp) != 0
        || s.layout() != (blocked ? 2 : 1)) {
      return "it was written for expectedInsertions=" + s.configuredInsertions() + ", fpp=" + s.configuredFpp()
          + ", layout " + s.layout() + "; this guard has expectedInsertions=" + configuredInsertions + ", fpp="
          + fpp + ", layout " + (blocked ? 2 : 1);
    }
    if (s.filter().expectedInsertions() < configuredInsertions || Double.compare(s.filter().fpp(), fpp) != 0) {
      return "its filter (n=" + s.filter().expectedInsertions() + ", p=" + s.filter().fpp()
          + ") does not match its envelope";
    }
    if (!source.supportsWatermark()) {
      return "it cannot be caught up: the key source " + source + " has no watermark column";
    }
    return null;
  }

  /** Writes the live filter to the store; a failure is logged and counted, and the old snapshot stays. */
  private void writeSnapshot() {
    if (snapshotStore == null) {
      return;
    }
    try {
      Optional<GuardFilters.Image<K>> image = filters.image();
      if (image.isEmpty()) {
        return;
      }
      long now = System.currentTimeMillis();
      snapshotStore.write(out -> SnapshotCodec.write(out, name, configuredInsertions, fpp, image.get().watermark(),
          now, image.get().filter()));
      LOG.log(Level.DEBUG, () -> "guard " + name + ": wrote a snapshot to " + snapshotStore);
    } catch (IOException | RuntimeException e) {
      snapshotFailures.increment();
      lastSnapshotError = GuardStats.describe(e);
      LOG.log(Level.WARNING, () -> "guard " + name + ": could not write a snapshot to " + snapshotStore
          + "; the previous one is kept", e);
    }
  }

  // ---------------------------------------------------------------- stats and lifecycle

  /** The guard's counters now. With a shared backend, the filter's figures are read from it. */
  public GuardStats stats() {
    Optional<GuardFilters.Live> live = Optional.empty();
    if (!closed) {
      try {
        live = filters.live();
      } catch (RuntimeException e) {
        // The backend cannot say: reported as no filter live, which is how checks behave meanwhile.
      }
    }
    Instant at = lastRebuildAt;
    GuardStats.Values v = new GuardStats.Values();
    v.checks = counters.checks.sum();
    v.definiteNegatives = counters.negatives.sum();
    v.positives = counters.positives();
    v.lookups = counters.lookups.sum();
    v.falsePositives = counters.falsePositives.sum();
    v.observedFpr = counters.observedFpr();
    v.targetFpp = fpp;
    v.ready = live.isPresent();
    v.filterCapacity = live.map(GuardFilters.Live::capacity).orElse(0L);
    v.filterCount = live.map(GuardFilters.Live::keys).orElse(0L);
    v.deletesSinceRebuild = live.map(GuardFilters.Live::deletes).orElse(0L);
    v.rebuilds = rebuilds;
    v.lastRebuildDuration = at == null ? Duration.ZERO : Duration.ofNanos(lastRebuildNanos);
    v.lastRebuildAt = at;
    v.rebuildFailures = loop.failures;
    v.consecutiveFailures = loop.consecutiveFailures;
    v.lastError = loop.lastError;
    v.backendErrors = counters.backendErrors.sum();
    v.failedInserts = failedInserts.get();
    v.degraded = degraded();
    v.lastBackendError = lastBackendError;
    v.snapshotFailures = snapshotFailures.sum();
    v.lastSnapshotError = lastSnapshotError;
    return new GuardStats(v);
  }

  /** The name given to the builder: in logs, metric tags and snapshots. */
  public String name() {
    return name;
  }

  /**
   * Stops the guard: a queued rebuild is dropped, a running one is interrupted (and awaited a few
   * seconds), and the live filter is written to the snapshot store, if any, so a restart has the least
   * to catch up. Afterwards every check answers "maybe" and recorded changes are ignored. A shared
   * backend's filters stay in place for the other instances. Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (loop.close(closeGrace)) { // the build thread stopped: no snapshot write can overlap this one
      writeSnapshot();
    } else if (snapshotStore != null) {
      // Writing now could overlap the build thread's own write; skipping must not be silent, though:
      // the restart will catch up from an older snapshot.
      String why = "close(): a build did not stop within closeTimeout " + closeGrace
          + "; the final snapshot was not written";
      snapshotFailures.increment();
      lastSnapshotError = why;
      LOG.log(Level.WARNING, () -> "guard " + name + ": " + why + " (the previous one in " + snapshotStore
          + " is kept)");
    } else {
      LOG.log(Level.WARNING, () -> "guard " + name + ": close(): a build did not stop within closeTimeout "
          + closeGrace);
    }
    filters.close();
  }

  @Override
  public String toString() {
    return "MembershipGuard[" + name + ", " + stats() + "]";
  }

  /** The live generation of the local backend, for tests. */
  Generation<K> liveForTest() {
    return ((LocalFilters<K>) filters).liveForTest();
  }

  // ---------------------------------------------------------------- builder

  /** Describes a guard. Not thread-safe; the guard it builds is. */
  public static final class Builder<K> {
    private final Funnel<? super K> funnel;
    private final KeySource<K> source;
    private String name = "guard";
    private long expectedInsertions = -1;
    private double fpp = 0.01;
    private boolean blocked;
    private double growthFactor = 2.0;
    private long deleteCountThreshold = Long.MAX_VALUE;
    private double deleteFractionThreshold = 0.10;
    private Duration rebuildInterval;
    private Duration retryInitial = Duration.ofSeconds(1);
    private Duration retryMax = Duration.ofMinutes(5);
    private SnapshotStore snapshotStore;
    private Duration closeGrace = Duration.ofSeconds(10);
    private GuardScheduler scheduler;
    private boolean dualWrite = true;
    private GuardBackend<K> backend;
    private FilterBudget budget;

    private Builder(Funnel<? super K> funnel, KeySource<K> source) {
      this.funnel = Objects.requireNonNull(funnel, "funnel");
      this.source = Objects.requireNonNull(source, "source");
    }

    /**
     * A name for logs, metric tags and the snapshot (a snapshot written under another name is not
     * loaded). Default "guard". @throws IllegalArgumentException if blank or over 1024 UTF-8 bytes
     */
    public Builder<K> name(String name) {
      Objects.requireNonNull(name, "name");
      if (name.isBlank() || name.getBytes(StandardCharsets.UTF_8).length > SnapshotCodec.MAX_NAME_BYTES) {
        throw new IllegalArgumentException("name must be non-blank and at most " + SnapshotCodec.MAX_NAME_BYTES
            + " UTF-8 bytes, was \"" + name + "\"");
      }
      this.name = name;
      return this;
    }

    /** The number of keys the first filter is sized for. Required. @throws IllegalArgumentException if < 1 */
    public Builder<K> expectedInsertions(long n) {
      if (n < 1) {
        throw new IllegalArgumentException("expectedInsertions must be >= 1, was " + n);
      }
      this.expectedInsertions = n;
      return this;
    }

    /** The target false-positive probability, in (0, 1); default 0.01. @throws IllegalArgumentException if not */
    public Builder<K> fpp(double fpp) {
      if (!(fpp > 0 && fpp < 1)) {
        throw new IllegalArgumentException("fpp must be in the open interval (0, 1), was " + fpp);
      }
      this.fpp = fpp;
      return this;
    }

    /** Uses the cache-blocked layout (one memory access per check; see docs/LAYOUTS.md). */
    public Builder<K> blocked() {
      this.blocked = true;
      return this;
    }

    /**
     * When the live filter holds more keys than it was sized for, rebuild it sized for this factor
     * times its count. Default 2. @throws IllegalArgumentException unless in (1, 16]
     */
    public Builder<K> growthFactor(double factor) {
      if (!(factor > 1 && factor <= 16)) {
        throw new IllegalArgumentException("growthFactor must be in (1, 16], was " + factor);
      }
      this.growthFactor = factor;
      return this;
    }

    /** Rebuild once this many deletes were recorded since the last build. Default: off. */
    public Builder<K> rebuildAfterDeletes(long count) {
      if (count < 1) {
        throw new IllegalArgumentException("rebuildAfterDeletes must be >= 1, was " + count);
      }
      this.deleteCountThreshold = count;
      return this;
    }

    /**
     * Rebuild once the deletes recorded since the last build reach this fraction of the filter's keys.
     * Default 0.10; 1.0 or more in effect turns it off for a table that only shrinks a little.
     *
     * @throws IllegalArgumentException unless positive and finite
     */
    public Builder<K> rebuildAfterDeleteFraction(double fraction) {
      if (!(fraction > 0 && fraction < Double.POSITIVE_INFINITY)) {
        throw new IllegalArgumentException("rebuildAfterDeleteFraction must be positive and finite, was " + fraction);
      }
      this.deleteFractionThreshold = fraction;
      return this;
    }

    /** Also rebuild this long after each build. Default: never. @throws IllegalArgumentException if not positive */
    public Builder<K> rebuildEvery(Duration interval) {
      if (interval == null || interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("rebuildEvery must be positive, was " + interval);
      }
      this.rebuildInterval = interval;
      return this;
    }

    /**
     * After a failed build, retry after {@code initial}, doubling per further failure up to {@code max}.
     * Default 1 s to 5 min. @throws IllegalArgumentException if initial is not positive or max < initial
     */
    public Builder<K> retryBackoff(Duration initial, Duration max) {
      new Backoff(initial, max); // checks both
      this.retryInitial = initial;
      this.retryMax = max;
      return this;
    }

    /** Loads the filter from this store at start (then catches up) and writes it after each build. */
    public Builder<K> snapshotStore(SnapshotStore store) {
      this.snapshotStore = Objects.requireNonNull(store, "store");
      return this;
    }

    /**
     * Keeps the filters in {@code backend} instead of this JVM: with bloom-redis's
     * {@code RedisGuardBackend}, in Redis, shared by every instance of the service (docs/GUARD.md,
     * "Shared mode"). Default: this JVM.
     */
    public Builder<K> backend(GuardBackend<K> backend) {
      this.backend = Objects.requireNonNull(backend, "backend");
      return this;
    }

    /**
     * How long {@link MembershipGuard#close()} waits for a running build to stop. Default 10 s. If the
     * build does not stop in time, the final snapshot is skipped (writing it could overlap the build's
     * own): logged as a WARNING and counted in {@link GuardStats#snapshotFailures()}, with
     * {@link GuardStats#lastSnapshotError()} saying so.
     */
    public Builder<K> closeTimeout(Duration grace) {
      if (grace == null || grace.isNegative()) {
        throw new IllegalArgumentException("closeTimeout must be >= 0, was " + grace);
      }
      this.closeGrace = grace;
      return this;
    }

    /** Test hook: runs builds on this scheduler instead of the guard's own thread. */
    Builder<K> scheduler(GuardScheduler scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    /** Test hook: turns the dual write off, to prove that the tests notice the inserts it saves. */
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
      budget = FilterBudget.of(fpp, blocked, backend == null ? Runtime.getRuntime().maxMemory() : -1);
      budget.check(expectedInsertions, fpp);
      MembershipGuard<K> guard = new MembershipGuard<>(this);
      guard.loop.request(RebuildLoop.Reason.START);
      return guard;
    }
  }
}
