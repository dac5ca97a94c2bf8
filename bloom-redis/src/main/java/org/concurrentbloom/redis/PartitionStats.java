package org.concurrentbloom.redis;

import java.util.List;
import org.concurrentbloom.internal.BitIndexer;

/**
 * The figures of a filter's parts, each a bit array of one shape: a {@link RedisBloomFilter}'s
 * partitions, read in one pipeline (stats.lua), or a {@link RedisExpiringBloomFilter}'s remembered
 * generations, read at one instant (exp-stats.lua). Each part's set bits and count, and what the
 * statistics make of them: rates and estimates are taken per part and then combined. Immutable once
 * built; any thread.
 */
final class PartitionStats {
  private final BitIndexer<?> shape;
  private final long[] setBits;
  private final long[] counts;

  /** {@code replies} are the stats.lua replies, {set bits, count}, of every partition. */
  PartitionStats(BitIndexer<?> shape, Object[] replies) {
    this.shape = shape;
    this.setBits = new long[replies.length];
    this.counts = new long[replies.length];
    for (int i = 0; i < replies.length; i++) {
      List<?> pair = (List<?>) replies[i];
      setBits[i] = (Long) pair.get(0);
      counts[i] = (Long) pair.get(1);
    }
  }

  /** {@code reply} is exp-stats.lua's flat list {set bits, count} per remembered generation. */
  PartitionStats(BitIndexer<?> shape, List<?> reply) {
    this.shape = shape;
    int parts = reply.size() / 2;
    this.setBits = new long[parts];
    this.counts = new long[parts];
    for (int i = 0; i < parts; i++) {
      setBits[i] = (Long) reply.get(2 * i);
      counts[i] = (Long) reply.get(2 * i + 1);
    }
  }

  long count() {
    long sum = 0;
    for (long c : counts) {
      sum += c;
    }
    return sum;
  }

  long setBits() {
    long sum = 0;
    for (long s : setBits) {
      sum += s;
    }
    return sum;
  }

  /** The mean of the parts' rates: for partitions, where a query lands in exactly one, each equally often. */
  double estimatedFpp() {
    double sum = 0;
    for (long s : setBits) {
      sum += Math.pow((double) s / shape.bitSize(), shape.hashFunctions());
    }
    return sum / setBits.length;
  }

  /**
   * 1 − Π (1 − f^k) over the parts: the rate of a query that asks every part, as an expiring filter's
   * query asks every remembered generation.
   */
  double unionFpp() {
    double none = 1;
    for (long s : setBits) {
      none *= 1 - Math.pow((double) s / shape.bitSize(), shape.hashFunctions());
    }
    return 1 - none;
  }

  /** The sum of the parts' estimates, or {@code Long.MAX_VALUE} if any is saturated or the sum overflows. */
  long approximateElementCount() {
    long sum = 0;
    for (long s : setBits) {
      long estimate = shape.estimateElements(s);
      if (estimate == Long.MAX_VALUE || sum > Long.MAX_VALUE - estimate) {
        return Long.MAX_VALUE;
      }
      sum += estimate;
    }
    return sum;
  }
}
