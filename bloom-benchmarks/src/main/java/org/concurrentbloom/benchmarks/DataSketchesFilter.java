package org.concurrentbloom.benchmarks;

import org.apache.datasketches.filters.bloomfilter.BloomFilter;
import org.apache.datasketches.filters.bloomfilter.BloomFilterBuilder;

/**
 * Apache DataSketches 6.1's {@code org.apache.datasketches.filters.bloomfilter.BloomFilter}, sized by
 * {@code BloomFilterBuilder.createByAccuracy(n, p, seed)}: the bit count and the number of hashes the
 * library itself suggests for n keys at p, on the heap.
 *
 * <p>Keys go in through the library's own typed calls: a String key as a String
 * ({@code update(String)} / {@code query(String)}, which hash the String's UTF-8 bytes with xxHash64;
 * the {@code getBytes} copy they make is the library's own cost, not this adapter's) and a long key as a
 * primitive long ({@code update(long)} / {@code query(long)}, unboxed here, allocation-free). The seed is
 * fixed, where {@code createByAccuracy(n, p)} would draw a random one, so that every fork builds the same
 * filter.
 *
 * <p>The filter is not thread-safe (its update is a plain read-modify-write of a {@code long[]}), so it is
 * measured with one thread only, like Commons Collections.
 */
final class DataSketchesFilter implements FilterUnderTest {
  /** Any fixed seed: DataSketches mixes it into both of its xxHash64 passes. */
  private static final long SEED = 0x5EED_1414L;

  private final BloomFilter filter;

  DataSketchesFilter(long n, double fpp) {
    filter = BloomFilterBuilder.createByAccuracy(n, fpp, SEED);
  }

  @Override
  public boolean add(Object key) {
    // queryAndUpdate sets the bits in the same pass as update (getAndSetBit) and answers whether all were
    // set already; negated, that is "some bit changed", what the other adapters' add returns.
    return !(key instanceof Long value ? filter.queryAndUpdate(value.longValue())
        : filter.queryAndUpdate((String) key));
  }

  @Override
  public boolean mightContain(Object key) {
    return key instanceof Long value ? filter.query(value.longValue()) : filter.query((String) key);
  }

  @Override
  public void fill(KeyType type, long from, long to) {
    for (long i = from; i < to; i++) {
      if (type == KeyType.LONG) {
        filter.update(Keys.longKey(i));
      } else {
        filter.update(Keys.email(i));
      }
    }
  }

  @Override
  public void reset() {
    filter.reset();
  }
}
