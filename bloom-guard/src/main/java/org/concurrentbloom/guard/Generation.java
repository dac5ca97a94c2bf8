package org.concurrentbloom.guard;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.concurrentbloom.BloomFilter;

/**
 * One filter of a local guard's life ({@link LocalFilters}): built (or loaded) by one rebuild, live until
 * the next one replaces it.
 *
 * <p>Threads: {@link #filter} and the counters are shared by every thread that records or checks keys.
 * {@link #watermark} is written by the rebuild thread before the generation is published (a volatile
 * write) and read only by threads that read the generation after that.
 */
final class Generation<K> {
  final BloomFilter<K> filter;
  /**
   * Keys this filter holds: the rows its scan passed (or the snapshot's count) plus the inserts recorded
   * into it. Inserts recorded during the scan may be counted twice, so it errs high, which only sizes a
   * rebuild a little larger. Unlike {@code filter.count()}, it stays right when the filter is overfull
   * (adds that find their bits set return false and are not counted there).
   */
  final AtomicLong keys = new AtomicLong();
  /** {@code recordDelete} calls since this generation's scan began. */
  final AtomicLong deletes = new AtomicLong();
  /** Set once a growth rebuild was requested for this generation, so it is requested once. */
  final AtomicBoolean growthRequested = new AtomicBoolean();
  /** Set once a delete-threshold rebuild was requested for this generation. */
  final AtomicBoolean deleteRebuildRequested = new AtomicBoolean();
  /** The source's watermark this filter is complete up to; empty if the source has none. */
  OptionalLong watermark = OptionalLong.empty();

  Generation(BloomFilter<K> filter) {
    this.filter = filter;
  }

  long capacity() {
    return filter.expectedInsertions();
  }
}
