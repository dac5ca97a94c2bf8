package org.concurrentbloom;

import java.util.concurrent.atomic.LongAdder;

/**
 * One generation of a {@link CountingBloomFilter}'s counters and its count. {@code clear()} and
 * {@code merge()} replace the filter's table with a new one instead of editing it, so that readers
 * switch from the old state to the new one at a single instant; a replaced table is never written again.
 */
final class CounterTable {
  final long[] words;
  /** Adds that returned true less removes that emptied a counter (see CountingBloomFilter#count). */
  final LongAdder count = new LongAdder();

  CounterTable(long[] words, long initialCount) {
    this.words = words;
    count.add(initialCount);
  }

  /** The count, floored at 0: false positives of add (uncounted adds whose removes count) can drive the sum below. */
  long count() {
    return Math.max(0, count.sum());
  }
}
