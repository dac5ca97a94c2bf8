package org.concurrentbloom.redis;

import java.time.Duration;
import java.util.Objects;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.HashStrategy;

/**
 * The settings of {@link RedisBloomFilter.Builder}; the builder adds the calls that create or attach. A
 * package-private base, as {@code StringBuilder}'s is, so that the public type stays
 * {@code RedisBloomFilter.Builder}. Not thread-safe, like every builder; {@link FilterOpener} reads the
 * fields on the builder's thread.
 *
 * @param <T> the type of item
 */
abstract sealed class RedisFilterSettings<T> permits RedisBloomFilter.Builder {
  final RedisClientAdapter redis;
  final String name;
  final Funnel<? super T> funnel;
  long expectedInsertions;
  boolean expectedInsertionsSet;
  double fpp = 0.01;
  int partitions = 1;
  ScriptCalls.Replication replication;
  /** Null: 4 for a new filter, and an existing filter's own (1 or 4) when attaching. */
  HashStrategy strategy;
  /** How long a partitioned filter's creator may take before another instance takes the creation over. */
  Duration creationLease = Duration.ofSeconds(10);

  RedisFilterSettings(RedisClientAdapter redis, String name, Funnel<? super T> funnel) {
    this.redis = Objects.requireNonNull(redis, "redis");
    FilterKeys.checkName(name);
    this.name = name;
    this.funnel = Objects.requireNonNull(funnel, "funnel");
  }

  abstract RedisBloomFilter.Builder<T> self();

  /**
   * n, the number of distinct items the whole filter must hold at its target fpp: required for
   * {@link RedisBloomFilter.Builder#create()}, which rejects values below 1.
   */
  public RedisBloomFilter.Builder<T> expectedInsertions(long expectedInsertions) {
    this.expectedInsertions = expectedInsertions;
    this.expectedInsertionsSet = true;
    return self();
  }

  /** p, the false-positive probability at n items, in (0, 1); {@link RedisBloomFilter.Builder#create()} checks it. Defaults to 0.01. */
  public RedisBloomFilter.Builder<T> fpp(double fpp) {
    this.fpp = fpp;
    return self();
  }

  /**
   * Splits the filter into {@code partitions} filters of ceil(n / partitions) items each, each in its
   * own Redis Cluster hash slot, so that the filter spreads over the masters and may exceed 2^32 bits.
   * Defaults to 1. A partitioned filter cannot be uploaded, downloaded or written to a stream.
   *
   * @throws IllegalArgumentException unless 1 &le; partitions &le; 65536
   */
  public RedisBloomFilter.Builder<T> partitions(int partitions) {
    FilterKeys.checkPartitions(partitions);
    this.partitions = partitions;
    return self();
  }

  /**
   * The hash strategy of a new filter: {@code XXH3_64_ENHANCED_DOUBLE} (4, the default, as for a new
   * local {@code BloomFilter}) or {@code MURMUR3_128_ENHANCED_DOUBLE} (1, the strategy of Redis filters
   * made before 4 was the default). Unset, {@code create} attaches to an existing filter of either; set,
   * it refuses a filter of the other with {@link RedisFilterMismatchException}.
   *
   * @throws IllegalArgumentException for any other strategy (the standard layout in Redis has these two)
   */
  public RedisBloomFilter.Builder<T> hashStrategy(HashStrategy strategy) {
    Objects.requireNonNull(strategy, "strategy");
    if (strategy != HashStrategy.XXH3_64_ENHANCED_DOUBLE && strategy != HashStrategy.MURMUR3_128_ENHANCED_DOUBLE) {
      throw new IllegalArgumentException("Redis filters take hash strategy 4 (" + HashStrategy.XXH3_64_ENHANCED_DOUBLE
          + ") or 1 (" + HashStrategy.MURMUR3_128_ENHANCED_DOUBLE + "), not " + strategy.id() + " (" + strategy + ")");
    }
    this.strategy = strategy;
    return self();
  }

  /** Test hook: the creation lease of a partitioned filter (default 10 s). */
  RedisBloomFilter.Builder<T> creationLeaseForTest(Duration lease) {
    this.creationLease = lease;
    return self();
  }

  /**
   * After every write, waits until at least {@code replicas} replicas of the written partition have
   * acknowledged it (Redis WAIT, in the same pipeline as the write), so that an add that returned
   * survives a failover. If fewer acknowledge within {@code timeout} the write throws
   * {@link RedisFilterException} (it has been applied on the master). A single add is retried through
   * a failover within the client's own retry budget; a batch is not. Off by default.
   *
   * @throws IllegalArgumentException if {@code replicas < 1} or the timeout is not positive
   */
  public RedisBloomFilter.Builder<T> waitForReplicas(int replicas, Duration timeout) {
    this.replication = ScriptCalls.Replication.of(replicas, timeout);
    return self();
  }
}
