package org.concurrentbloom.guard;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import org.concurrentbloom.FilterType;
import org.concurrentbloom.Funnel;

/**
 * The settings of {@link MembershipGuard.Builder}, each checked when set so that the message names the
 * bad value; the builder adds {@code build()}. A package-private base, as {@code StringBuilder}'s is, so
 * that the public type stays {@code MembershipGuard.Builder}. Not thread-safe, like every builder.
 *
 * @param <K> the type of key
 */
abstract sealed class GuardSettings<K> permits MembershipGuard.Builder {
  final Funnel<? super K> funnel;
  final KeySource<K> source;
  String name = "guard";
  long expectedInsertions = -1;
  double fpp = 0.01;
  FilterType layout = FilterType.STANDARD;
  double growthFactor = 2.0;
  long deleteCountThreshold = Long.MAX_VALUE;
  double deleteFractionThreshold = 0.10;
  Duration rebuildInterval;
  Duration retryInitial = Duration.ofSeconds(1);
  Duration retryMax = Duration.ofMinutes(5);
  SnapshotStore snapshotStore;
  Duration closeGrace = Duration.ofSeconds(10);
  GuardScheduler scheduler;
  boolean dualWrite = true;
  GuardBackend<K> backend;

  GuardSettings(Funnel<? super K> funnel, KeySource<K> source) {
    this.funnel = Objects.requireNonNull(funnel, "funnel");
    this.source = Objects.requireNonNull(source, "source");
  }

  abstract MembershipGuard.Builder<K> self();



  /**
   * A name for logs, metric tags and the snapshot (a snapshot written under another name is not
   * loaded). Default "guard". @throws IllegalArgumentException if blank or over 1024 UTF-8 bytes
   */
  public MembershipGuard.Builder<K> name(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isBlank() || name.getBytes(StandardCharsets.UTF_8).length > SnapshotCodec.MAX_NAME_BYTES) {
      throw new IllegalArgumentException("name must be non-blank and at most " + SnapshotCodec.MAX_NAME_BYTES
          + " UTF-8 bytes, was \"" + name + "\"");
    }
    this.name = name;
    return self();
  }

  /** The number of keys the first filter is sized for. Required. @throws IllegalArgumentException if < 1 */
  public MembershipGuard.Builder<K> expectedInsertions(long n) {
    if (n < 1) {
      throw new IllegalArgumentException("expectedInsertions must be >= 1, was " + n);
    }
    this.expectedInsertions = n;
    return self();
  }

  /** The target false-positive probability, in (0, 1); default 0.01. @throws IllegalArgumentException if not */
  public MembershipGuard.Builder<K> fpp(double fpp) {
    if (!(fpp > 0 && fpp < 1)) {
      throw new IllegalArgumentException("fpp must be in the open interval (0, 1), was " + fpp);
    }
    this.fpp = fpp;
    return self();
  }

  /** Uses the cache-blocked layout (one memory access per check; see docs/LAYOUTS.md). */
  public MembershipGuard.Builder<K> blocked() {
    this.layout = FilterType.BLOCKED;
    return self();
  }

  /**
   * When the live filter holds more keys than it was sized for, rebuild it sized for this factor
   * times its count. Default 2. @throws IllegalArgumentException unless in (1, 16]
   */
  public MembershipGuard.Builder<K> growthFactor(double factor) {
    if (!(factor > 1 && factor <= 16)) {
      throw new IllegalArgumentException("growthFactor must be in (1, 16], was " + factor);
    }
    this.growthFactor = factor;
    return self();
  }

  /** Rebuild once this many deletes were recorded since the last build. Default: off. */
  public MembershipGuard.Builder<K> rebuildAfterDeletes(long count) {
    if (count < 1) {
      throw new IllegalArgumentException("rebuildAfterDeletes must be >= 1, was " + count);
    }
    this.deleteCountThreshold = count;
    return self();
  }

  /**
   * Rebuild once the deletes recorded since the last build reach this fraction of the filter's keys.
   * Default 0.10; 1.0 or more in effect turns it off for a table that only shrinks a little.
   *
   * @throws IllegalArgumentException unless positive and finite
   */
  public MembershipGuard.Builder<K> rebuildAfterDeleteFraction(double fraction) {
    if (!(fraction > 0 && fraction < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException("rebuildAfterDeleteFraction must be positive and finite, was " + fraction);
    }
    this.deleteFractionThreshold = fraction;
    return self();
  }

  /** Also rebuild this long after each build. Default: never. @throws IllegalArgumentException if not positive */
  public MembershipGuard.Builder<K> rebuildEvery(Duration interval) {
    if (interval == null || interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("rebuildEvery must be positive, was " + interval);
    }
    this.rebuildInterval = interval;
    return self();
  }

  /**
   * After a failed build, retry after {@code initial}, doubling per further failure up to {@code max}.
   * Default 1 s to 5 min. @throws IllegalArgumentException if initial is not positive or max < initial
   */
  public MembershipGuard.Builder<K> retryBackoff(Duration initial, Duration max) {
    new Backoff(initial, max); // checks both
    this.retryInitial = initial;
    this.retryMax = max;
    return self();
  }

  /** Loads the filter from this store at start (then catches up) and writes it after each build. */
  public MembershipGuard.Builder<K> snapshotStore(SnapshotStore store) {
    this.snapshotStore = Objects.requireNonNull(store, "store");
    return self();
  }

  /**
   * Keeps the filters in {@code backend} instead of this JVM: with bloom-redis's
   * {@code RedisGuardBackend}, in Redis, shared by every instance of the service (docs/GUARD.md,
   * "Shared mode"). Default: this JVM.
   */
  public MembershipGuard.Builder<K> backend(GuardBackend<K> backend) {
    this.backend = Objects.requireNonNull(backend, "backend");
    return self();
  }

  /**
   * How long {@link MembershipGuard#close()} waits for a running build to stop. Default 10 s. If the
   * build does not stop in time, the final snapshot is skipped (writing it could overlap the build's
   * own): logged as a WARNING and counted in {@link GuardStats#snapshotFailures()}, with
   * {@link GuardStats#lastSnapshotError()} saying so.
   */
  public MembershipGuard.Builder<K> closeTimeout(Duration grace) {
    if (grace == null || grace.isNegative()) {
      throw new IllegalArgumentException("closeTimeout must be >= 0, was " + grace);
    }
    this.closeGrace = grace;
    return self();
  }
}
