package org.concurrentbloom.redis;

import org.concurrentbloom.MembershipFilter;

/**
 * The statistics of a filter kept in Redis as parts of one shape, read in one call at one instant: a
 * {@link RedisBloomFilter}'s partitions, or a {@link RedisExpiringBloomFilter}'s remembered generations
 * ({@link PartitionStats}). A package-private base, as {@code StringBuilder}'s is, so that both public
 * classes carry these methods without a copy each. Every method may be called from any thread.
 *
 * @param <T> the type of item
 */
abstract sealed class RedisFilterFigures<T> implements MembershipFilter<T>
    permits RedisBloomFilter, RedisExpiringBloomFilter {
  RedisFilterFigures() {}

  /** Every part's set bits and count, read in one call. @throws RedisFilterException if Redis fails */
  abstract PartitionStats figures();

  /**
   * True if a query asks every part (an expiring filter's generations), false if it asks one (a
   * partitioned filter's partitions): how the parts' false-positive rates combine.
   */
  abstract boolean queryAsksEveryPart();

  /**
   * The adds, from every client, that changed a bit (a partition's) or were new (an expiring filter's,
   * in the generations still remembered), since creation or the last clear, plus an uploaded filter's
   * count. Exact: each add is counted by the script that applied it.
   *
   * @throws RedisFilterException if Redis fails
   */
  @Override
  public long count() {
    return figures().count();
  }

  /** The fraction of all {@link #bitSize()} bits that are set (BITCOUNT on the server). @throws RedisFilterException if Redis fails */
  @Override
  public double fillRatio() {
    return (double) figures().setBits() / bitSize();
  }

  /**
   * The false-positive rate read off the bits set, f^k for a part with a fraction f of its bits set: the
   * mean over a partitioned filter's partitions (a query lands in each equally often), 1 − Π (1 − f^k)
   * over an expiring filter's remembered generations (a query asks every one). It holds after merges,
   * uploads and past capacity, where {@link #count()} falls behind.
   *
   * @throws RedisFilterException if Redis fails
   */
  @Override
  public double estimatedFpp() {
    PartitionStats s = figures();
    return queryAsksEveryPart() ? s.unionFpp() : s.estimatedFpp();
  }

  /**
   * Distinct items estimated from the set bits of each part (Swamidass and Baldi 2007), summed;
   * {@code Long.MAX_VALUE} when a part is saturated.
   *
   * @throws RedisFilterException if Redis fails
   */
  @Override
  public long approximateElementCount() {
    return figures().approximateElementCount();
  }
}
