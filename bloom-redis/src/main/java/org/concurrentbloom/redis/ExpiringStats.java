package org.concurrentbloom.redis;

import java.util.List;
import org.concurrentbloom.internal.BitIndexer;

/**
 * The figures of an expiring filter's remembered generations, read at one instant by exp-stats.lua, and
 * what {@link RedisExpiringBloomFilter}'s statistics make of them. A query asks every generation, so the
 * rates combine as a union: 1 − Π (1 − f_g^k). Immutable; any thread.
 */
final class ExpiringStats {
  private final BitIndexer<?> shape;
  private final long[] setBits;
  private final long[] counts;

  /** {@code reply} is exp-stats.lua's flat list {set bits, count} per generation. */
  ExpiringStats(BitIndexer<?> shape, List<?> reply) {
    this.shape = shape;
    int g = reply.size() / 2;
    this.setBits = new long[g];
    this.counts = new long[g];
    for (int i = 0; i < g; i++) {
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

  double estimatedFpp() {
    double none = 1;
    for (long s : setBits) {
      none *= 1 - Math.pow((double) s / shape.bitSize(), shape.hashFunctions());
    }
    return 1 - none;
  }

  /** The generations' estimates added up; {@code Long.MAX_VALUE} if one is saturated or the sum overflows. */
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
