package org.concurrentbloom.guard;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.concurrentbloom.BloomFilter;
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
 * The live filter is one immutable {@link Generation} behind a volatile reference. A rebuild builds a
 * new generation off to the side and publishes it with one reference swap, so readers never see a
 * half-built filter and never wait. Deleted keys cannot be removed from a Bloom filter, so deletes are
 * counted and, past a threshold, trigger a rebuild; a table that outgrows the filter's capacity
 * triggers one sized up by the growth factor, so the false-positive rate stays near its target.
 *
 * <p><b>The dual-write window</b> (the NSF approach of Mohan and Narang, "Algorithms for creating
 * indexes for very large tables without quiescing updates", SIGMOD 1992: updaters write straight into
 * the structure being built). A rebuild R (1) registers its new filter P as {@code pending}, (2) starts
 * the scan, (3) swaps {@code live} to P, (4) clears {@code pending}. {@code recordInsert(k)} reads
 * {@code pending} and adds k there if set, and only then reads {@code live} and adds k there. All these
 * accesses are volatile, so they fall in one total order consistent with each thread's program order.
 * The caller calls {@code recordInsert(k)} after k's insert committed, at time c. Claim: when
 * {@code recordInsert(k)} returns, k is in the live filter and in every filter published later.
 * <ul>
 *   <li>The filter it read from {@code live} contains k: it added k itself.
 *   <li>Take any rebuild R that publishes later. If R's scan started after c, the scan sees k: it is a
 *       query started after the commit, and a database at READ COMMITTED or stronger shows every
 *       transaction committed before a statement starts (a snapshot-isolation transaction, opened by the
 *       scan inside its call, likewise). If it started before c, then R registered P before c, which is
 *       before {@code recordInsert} read {@code pending}; and R clears {@code pending} only after its
 *       swap, which comes after our read of {@code live} (R publishes later). So our read of
 *       {@code pending} fell between R's steps (1) and (4) and returned P (rebuilds run one at a time,
 *       so no other filter is registered then), and k was added to P.
 * </ul>
 * The order of the two reads matters: reading {@code live} first lets a rebuild swap and clear
 * {@code pending} between the reads, and k lands only in the filter just replaced. The tests show
 * both that no recorded insert is lost and that, with the dual write disabled, one is.
 * The argument needs the scan to see every commit the application has seen: the key source must read
 * the primary, not a replica that lags behind it.
 *
 * <p>A snapshot holds the filter and the watermark (the largest id or timestamp its scan saw). At start
 * the snapshot is registered as the pending filter, caught up with the keys after its watermark (the
 * same window argument covers inserts recorded meanwhile), and published.
 *
 * <h2>Threads</h2>
 * {@link #mightExist}, {@link #check}, {@link #recordInsert} and {@link #recordDelete} may be called from
 * any number of threads; they take no lock and only read volatile references, add to lock-free filters
 * and bump counters. {@link #rebuildNow()} blocks the caller until a build finishes; builds run one at a
 * time on the guard's own daemon thread ({@code bloom-guard-rebuild-<name>}), which also loads and
 * writes snapshots. {@link #close()} may be called from any thread, once or more.
 *
 * @param <K> the type of key
 */
public final class MembershipGuard<K> implements AutoCloseable {
  private static final Logger LOG = System.getLogger(MembershipGuard.class.getName());
  private static final VarHandle LIVE;
  private static final VarHandle PENDING;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      LIVE = lookup.findVarHandle(MembershipGuard.class, "live", Generation.class);
      PENDING = lookup.findVarHandle(MembershipGuard.class, "pending", Generation.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

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
  private final long deleteCountThreshold;
  private final double deleteFractionThreshold;
  private final SnapshotStore snapshotStore;
  private final Duration closeGrace;
  /** Test hook: false disables the dual write, to show that the tests catch the loss it prevents. */
  private final boolean dualWrite;
  private final RebuildLoop loop;
  private final GuardCounters counters = new GuardCounters();
  private final CompletableFuture<Void> ready = new CompletableFuture<>();

  @SuppressWarnings("unused") // accessed through LIVE
  private volatile Generation<K> live;
  @SuppressWarnings("unused") // accessed through PENDING
  private volatile Generation<K> pending;
  private volatile boolean closed;

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
    this.deleteCountThreshold = b.deleteCountThreshold;
    this.deleteFractionThreshold = b.deleteFractionThreshold;
    this.snapshotStore = b.snapshotStore;
    this.closeGrace = b.closeGrace;
    this.dualWrite = b.dualWrite;
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
   * Answers true while no filter is live (before the first build, and after {@link #close()}), so a
   * caller that queries the source on true is never wrong.
   *
   * @throws NullPointerException if {@code key} is null
   */
  public boolean mightExist(K key) {
    Objects.requireNonNull(key, "key");
    Generation<K> g = liveAcquire();
    boolean maybe = g == null || closed || g.filter.mightContain(key);
    counters.check(maybe);
    return maybe;
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
   * key. From its return on, {@link #mightExist} answers true for {@code key}, across rebuilds.
   *
   * @throws NullPointerException if {@code key} is null
   */
  public void recordInsert(K key) {
    Objects.requireNonNull(key, "key");
    // pending first, then live: the order the class comment's argument needs.
    Generation<K> p = pendingVolatile();
    if (p != null && dualWrite) {
      p.filter.add(key);
    }
    Generation<K> g = liveVolatile();
    if (g == null) {
      return;
    }
    g.filter.add(key);
    if (p != null && p != g && dualWrite) {
      p.keys.incrementAndGet();
    }
    long keys = g.keys.incrementAndGet();
    if (keys > g.capacity() && g.growthRequested.compareAndSet(false, true)) {
      LOG.log(Level.DEBUG, () -> "guard " + name + ": " + keys + " keys passed the capacity " + g.capacity()
          + "; rebuilding " + growthFactor + "x larger");
      loop.request(RebuildLoop.Reason.GROWTH);
    }
  }

  /**
   * Records that {@code key} was deleted from the source. A Bloom filter cannot forget a key, so the
   * guard keeps answering "maybe" for it (sending its checks to the source) until the next rebuild;
   * enough deletes trigger that rebuild (see {@link Builder#rebuildAfterDeletes} and
   * {@link Builder#rebuildAfterDeleteFraction}).
   *
   * @throws NullPointerException if {@code key} is null
   */
  public void recordDelete(K key) {
    Objects.requireNonNull(key, "key");
    Generation<K> g = liveVolatile();
    Generation<K> p = pendingVolatile();
    if (p != null && p != g) {
      p.deletes.incrementAndGet();
    }
    if (g == null) {
      return;
    }
    long deletes = g.deletes.incrementAndGet();
    if (deleteThresholdReached(g, deletes) && g.deleteRebuildRequested.compareAndSet(false, true)) {
      LOG.log(Level.DEBUG, () -> "guard " + name + ": " + deletes + " deletes since the last build; rebuilding");
      loop.request(RebuildLoop.Reason.DELETES);
    }
  }

  private boolean deleteThresholdReached(Generation<K> g, long deletes) {
    return deletes >= deleteCountThreshold
        || deletes >= deleteFractionThreshold * Math.max(1, g.keys.get());
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
    CompletableFuture<Void> build = loop.request(RebuildLoop.Reason.REQUESTED);
    try {
      build.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RebuildException("interrupted while waiting for guard " + name + " to rebuild", e);
    } catch (ExecutionException e) {
      throw new RebuildException("guard " + name + " could not rebuild: " + e.getCause(), e.getCause());
    }
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

  /** One build, on the build thread: from the snapshot at start if allowed and usable, else a scan. */
  private void build(boolean fullScan) throws Exception {
    if (closed) {
      throw new IllegalStateException("guard " + name + " is closed");
    }
    long start = System.nanoTime();
    Generation<K> current = liveVolatile();
    if (current == null && !fullScan && snapshotStore != null) {
      Optional<SnapshotCodec.Snapshot<K>> snapshot = loadSnapshot();
      if (snapshot.isPresent()) {
        Generation<K> next = new Generation<>(snapshot.get().filter());
        next.watermark = snapshot.get().watermark();
        next.keys.set(next.filter.count());
        long after = next.watermark.orElse(Long.MIN_VALUE);
        // The catch-up re-reads rows recorded into the snapshot before it was written: count only the
        // keys that are new to the filter (false positives among them go uncounted, a p-sized error).
        publish(next, start, () -> source.scanAfter(after, key -> {
          if (next.filter.add(key)) {
            next.keys.incrementAndGet();
          }
        }), false, "snapshot caught up after watermark " + after);
        return;
      }
    }
    Generation<K> next = new Generation<>(newFilter(nextCapacity(current)));
    publish(next, start, () -> source.scanAll(next.filter::add), true, "full scan");
  }

  /** A scan of the source into the filter being built. */
  @FunctionalInterface
  private interface Scan {
    ScanResult run() throws Exception;
  }

  /**
   * Registers {@code next} for the dual write, scans into it, swaps it live: steps (1) to (4) of the
   * class comment. {@code countRows}: add the scan's row count to the generation's key count.
   */
  private void publish(Generation<K> next, long start, Scan scan, boolean countRows, String how) throws Exception {
    setPendingVolatile(next); // (1): from here on, recordInsert also adds to next
    try {
      ScanResult result = scan.run(); // (2)
      if (countRows) {
        next.keys.addAndGet(result.keys());
      }
      if (result.maxWatermark().isPresent()) {
        long seen = result.maxWatermark().getAsLong();
        next.watermark = OptionalLong.of(next.watermark.isPresent()
            ? Math.max(seen, next.watermark.getAsLong()) : seen);
      }
      if (closed) {
        throw new IllegalStateException("guard " + name + " was closed during the build");
      }
      next.buildNanos = System.nanoTime() - start;
      setLiveVolatile(next); // (3)
    } finally {
      setPendingVolatile(null); // (4), after the swap; on failure, next is dropped and never published
    }
    lastRebuildNanos = next.buildNanos;
    lastRebuildAt = Instant.now();
    rebuilds++;
    LOG.log(Level.DEBUG, () -> "guard " + name + ": published a filter of " + next.keys.get() + " keys (capacity "
        + next.capacity() + ") from a " + how + " in " + next.buildNanos / 1_000_000 + " ms");
    if (next.keys.get() > next.capacity() && next.growthRequested.compareAndSet(false, true)) {
      loop.request(RebuildLoop.Reason.GROWTH); // the source already outgrew this filter
    }
    writeSnapshot(next);
    ready.complete(null); // last, so whoever waited for it also sees the snapshot and any follow-up queued
  }

  private BloomFilter<K> newFilter(long capacity) {
    BloomFilter.Builder<K> b = BloomFilter.<K>builder(funnel).expectedInsertions(capacity).fpp(fpp);
    return blocked ? b.blocked().build() : b.build();
  }

  /**
   * The capacity of the next filter: never below the configured or current capacity, and the growth
   * factor times the live count once the live filter holds more keys than it was sized for.
   */
  private long nextCapacity(Generation<K> current) {
    long capacity = configuredInsertions;
    if (current != null) {
      capacity = Math.max(capacity, current.capacity());
      long count = current.keys.get();
      if (count > current.capacity()) {
        capacity = Math.max(capacity, (long) Math.min(Long.MAX_VALUE / 2, Math.ceil(count * growthFactor)));
      }
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

  private void writeSnapshot(Generation<K> g) {
    if (snapshotStore == null) {
      return;
    }
    try {
      long now = System.currentTimeMillis();
      snapshotStore.write(out -> SnapshotCodec.write(out, name, configuredInsertions, fpp, g.watermark, now,
          g.filter));
      LOG.log(Level.DEBUG, () -> "guard " + name + ": wrote a snapshot to " + snapshotStore);
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, () -> "guard " + name + ": could not write a snapshot to " + snapshotStore
          + "; the previous one is kept", e);
    }
  }

  // ---------------------------------------------------------------- stats and lifecycle

  /** The guard's counters now. */
  public GuardStats stats() {
    Generation<K> g = closed ? null : liveAcquire();
    Instant at = lastRebuildAt;
    return new GuardStats(
        counters.checks.sum(),
        counters.negatives.sum(),
        counters.positives(),
        counters.lookups.sum(),
        counters.falsePositives.sum(),
        counters.observedFpr(),
        fpp,
        g != null,
        g == null ? 0 : g.capacity(),
        g == null ? 0 : g.keys.get(),
        g == null ? 0 : g.deletes.get(),
        rebuilds,
        at == null ? Duration.ZERO : Duration.ofNanos(lastRebuildNanos),
        at,
        loop.failures,
        loop.consecutiveFailures,
        loop.lastError);
  }

  /** The name given to the builder: in logs, metric tags and snapshots. */
  public String name() {
    return name;
  }

  /**
   * Stops the guard: a queued rebuild is dropped, a running one is interrupted (and awaited a few
   * seconds), and the live filter is written to the snapshot store, if any, so a restart has the least
   * to catch up. Afterwards every check answers "maybe" and recorded changes are ignored. Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    Generation<K> last = liveVolatile();
    boolean stopped = loop.close(closeGrace);
    if (stopped && last != null && liveVolatile() == last) {
      writeSnapshot(last);
    }
    setLiveVolatile(null);
  }

  @Override
  public String toString() {
    return "MembershipGuard[" + name + ", " + stats() + "]";
  }

  /** The live generation, for tests. */
  Generation<K> liveForTest() {
    return liveVolatile();
  }

  @SuppressWarnings("unchecked")
  private Generation<K> liveAcquire() {
    return (Generation<K>) LIVE.getAcquire(this);
  }

  @SuppressWarnings("unchecked")
  private Generation<K> liveVolatile() {
    return (Generation<K>) LIVE.getVolatile(this);
  }

  private void setLiveVolatile(Generation<K> g) {
    LIVE.setVolatile(this, g);
  }

  @SuppressWarnings("unchecked")
  private Generation<K> pendingVolatile() {
    return (Generation<K>) PENDING.getVolatile(this);
  }

  private void setPendingVolatile(Generation<K> g) {
    PENDING.setVolatile(this, g);
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

    /** How long {@link MembershipGuard#close()} waits for a running build to stop. Default 10 s. */
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
     */
    public MembershipGuard<K> build() {
      if (expectedInsertions < 0) {
        throw new IllegalStateException("expectedInsertions(n) must be set before build()");
      }
      MembershipGuard<K> guard = new MembershipGuard<>(this);
      guard.loop.request(RebuildLoop.Reason.START);
      return guard;
    }
  }
}
