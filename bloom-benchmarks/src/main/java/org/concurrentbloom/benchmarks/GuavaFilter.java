package org.concurrentbloom.benchmarks;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnel;
import com.google.common.hash.Funnels;
import java.nio.charset.StandardCharsets;

/**
 * Guava 33's {@code com.google.common.hash.BloomFilter} with {@code Funnels.stringFunnel(UTF_8)} or
 * {@code Funnels.longFunnel()}. Its put and mightContain are thread-safe (a lock-free bit array since
 * Guava 23), so it takes part in the two-thread cases.
 */
final class GuavaFilter implements FilterUnderTest {
  private final Funnel<Object> funnel;
  private final long n;
  private final double fpp;
  /** Volatile because {@link #reset} swaps in a new filter (Guava has no clear) while others may add. */
  private volatile BloomFilter<Object> filter;

  GuavaFilter(KeyType type, long n, double fpp) {
    this.funnel = funnel(type);
    this.n = n;
    this.fpp = fpp;
    this.filter = BloomFilter.create(funnel, n, fpp);
  }

  @Override
  public boolean add(Object key) {
    return filter.put(key);
  }

  @Override
  public boolean mightContain(Object key) {
    return filter.mightContain(key);
  }

  @Override
  public void fill(KeyType type, long from, long to) {
    BloomFilter<Object> f = filter;
    for (long i = from; i < to; i++) {
      f.put(type.key(i));
    }
  }

  @Override
  public void reset() {
    filter = BloomFilter.create(funnel, n, fpp);
  }

  @SuppressWarnings("unchecked") // as in OursFilter: a filter only ever sees keys of its own type
  private static Funnel<Object> funnel(KeyType type) {
    Funnel<?> funnel = type == KeyType.LONG ? Funnels.longFunnel() : Funnels.stringFunnel(StandardCharsets.UTF_8);
    return (Funnel<Object>) funnel;
  }
}
