package org.concurrentbloom.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.Funnels;
import org.concurrentbloom.HashStrategy;

/** bloom-core's filter, standard or cache-blocked layout, with the hash strategy the {@link Impl} names. Thread-safe. */
final class OursFilter implements FilterUnderTest {
  private static final int CHUNK = 4096;

  private final BloomFilter<Object> filter;

  OursFilter(KeyType type, long n, double fpp, Impl impl) {
    BloomFilter.Builder<Object> builder = BloomFilter.builder(funnel(type)).expectedInsertions(n).fpp(fpp);
    if (impl.isBlocked()) {
      builder.blocked();
    }
    if (impl.isMurmur3()) {
      builder.hashStrategy(impl.isBlocked() ? HashStrategy.MURMUR3_128_BLOCKED : HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
    }
    filter = builder.build();
  }

  /** The filter itself, for the batch benchmarks, which call its typed batch methods. */
  BloomFilter<Object> filter() {
    return filter;
  }

  @Override
  public boolean add(Object key) {
    return filter.add(key);
  }

  @Override
  public boolean mightContain(Object key) {
    return filter.mightContain(key);
  }

  @Override
  public void fill(KeyType type, long from, long to) {
    // Batches overlap their cache misses: a 10M-key fill takes a second or two instead of several.
    if (type == KeyType.LONG) {
      long[] chunk = new long[CHUNK];
      for (long base = from; base < to; base += CHUNK) {
        int len = (int) Math.min(CHUNK, to - base);
        for (int i = 0; i < len; i++) {
          chunk[i] = Keys.longKey(base + i);
        }
        filter.addAll(len == CHUNK ? chunk : Arrays.copyOf(chunk, len));
      }
    } else {
      List<Object> chunk = new ArrayList<>(CHUNK);
      for (long base = from; base < to; base += CHUNK) {
        chunk.clear();
        long end = Math.min(base + CHUNK, to);
        for (long i = base; i < end; i++) {
          chunk.add(type.key(i));
        }
        filter.addAll(chunk);
      }
    }
  }

  @Override
  public void reset() {
    filter.clear();
  }

  /**
   * The funnel for {@code type}, typed for Object keys: the benchmarks hold keys as Object so that one
   * method serves both key types, and a filter only ever sees keys of its own type.
   */
  @SuppressWarnings("unchecked")
  private static Funnel<Object> funnel(KeyType type) {
    Funnel<?> funnel = type == KeyType.LONG ? Funnels.longFunnel() : Funnels.stringFunnel();
    return (Funnel<Object>) funnel;
  }
}
