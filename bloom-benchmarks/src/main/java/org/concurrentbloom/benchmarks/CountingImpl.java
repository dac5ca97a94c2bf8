package org.concurrentbloom.benchmarks;

import org.apache.commons.collections4.bloomfilter.ArrayCountingBloomFilter;
import org.apache.commons.collections4.bloomfilter.CellExtractor;
import org.apache.commons.collections4.bloomfilter.Shape;
import org.concurrentbloom.CountingBloomFilter;
import org.concurrentbloom.Funnels;

/** The counting filters compared, as a JMH {@code @Param}. */
public enum CountingImpl {
  /** bloom-core's CountingBloomFilter: 4-bit counters, thread-safe. */
  OURS {
    @Override
    CountingUnderTest create(long n, double fpp) {
      CountingBloomFilter<CharSequence> filter = CountingBloomFilter.create(Funnels.stringFunnel(), n, fpp);
      return new CountingUnderTest() {
        @Override
        public boolean add(Object key) {
          return filter.add((CharSequence) key);
        }

        @Override
        public boolean remove(Object key) {
          return filter.remove((CharSequence) key);
        }

        @Override
        public boolean mightContain(Object key) {
          return filter.mightContain((CharSequence) key);
        }

        @Override
        public void reset() {
          filter.clear();
        }
      };
    }
  },
  /**
   * Commons Collections 4.6's ArrayCountingBloomFilter (an int per cell, not thread-safe), shaped by
   * {@code Shape.fromNP(n, p)} and hashed as {@link CommonsFilter} hashes: a 128-bit MurmurHash3 of the
   * key handed to an EnhancedDoubleHasher.
   *
   * <p>Adds and removes go through {@code add}/{@code subtract} of {@code CellExtractor.from(indices)},
   * the fastest public route: {@code merge(Hasher)} and {@code remove(Hasher)} first make the indices
   * unique through {@code IndexExtractor.uniqueIndices()}, which fills a {@code java.util.BitSet} as
   * large as the filter (1.2 MB here) on every call, about 2 ms per add in a smoke run. Through cells, a
   * probe that repeats an index counts twice, in adds and removes alike, which is consistent.
   */
  COMMONS {
    @Override
    CountingUnderTest create(long n, double fpp) {
      Shape shape = Shape.fromNP(Math.toIntExact(n), fpp);
      ArrayCountingBloomFilter filter = new ArrayCountingBloomFilter(shape);
      return new CountingUnderTest() {
        @Override
        public boolean add(Object key) {
          return filter.add(cells(key));
        }

        @Override
        public boolean remove(Object key) {
          return filter.subtract(cells(key));
        }

        @Override
        public boolean mightContain(Object key) {
          return filter.contains(CommonsFilter.hasher(key));
        }

        @Override
        public void reset() {
          filter.clear();
        }

        private CellExtractor cells(Object key) {
          return CellExtractor.from(CommonsFilter.hasher(key).indices(shape));
        }
      };
    }
  };

  /** An empty filter of this implementation for n String keys at false-positive rate fpp. */
  abstract CountingUnderTest create(long n, double fpp);

  /** This implementation, if it may be shared between threads: guards the two-thread benchmarks. */
  CountingImpl requireThreadSafe() {
    if (this != OURS) {
      throw new IllegalArgumentException(this + " is not thread-safe: single-thread benchmarks only");
    }
    return this;
  }
}
