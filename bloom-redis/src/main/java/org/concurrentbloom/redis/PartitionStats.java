package org.concurrentbloom.redis;

import java.util.List;
import org.concurrentbloom.internal.BitIndexer;

/**
 * The figures of a filter's partitions, read in one pipeline (stats.lua): each partition's set bits
 * and count, and what {@link RedisBloomFilter}'s statistics make of them. Each partition is a Bloom
 * filter of its own shape, so rates and estimates are taken per partition and then combined. Immutable
 * once built; any thread.
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

  /** The mean of the partitions' rates: a query lands in each equally often. */
  double estimatedFpp() {
    double sum = 0;
    for (long s : setBits) {
      sum += Math.pow((double) s / shape.bitSize(), shape.hashFunctions());
    }
    return sum / setBits.length;
  }

  /** The sum of the partitions' estimates, or {@code Long.MAX_VALUE} if any is saturated. */
  long approximateElementCount() {
    long sum = 0;
    for (long s : setBits) {
      long estimate = shape.estimateElements(s);
      if (estimate == Long.MAX_VALUE) {
        return Long.MAX_VALUE;
      }
      sum += estimate;
    }
    return sum;
  }
}
