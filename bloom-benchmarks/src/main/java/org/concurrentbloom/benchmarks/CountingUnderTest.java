package org.concurrentbloom.benchmarks;

/** One library's counting Bloom filter behind the calls {@link CountingBenchmark} measures. String keys. */
interface CountingUnderTest {
  boolean add(Object key);

  /** Removes one copy of {@code key}, which the benchmark only ever passes for keys it added. */
  boolean remove(Object key);

  boolean mightContain(Object key);

  /** Empties the filter. */
  void reset();
}
