package org.concurrentbloom.benchmarks;

/** The sliding-window filters {@link ExpiringBenchmark} compares, as a JMH {@code @Param}. */
public enum ExpiringImpl {
  /** bloom-core's {@code ExpiringBloomFilter}, G = 8 generations. Thread-safe. */
  OURS_EXPIRING,
  /**
   * Commons Collections 4.6's {@code LayeredBloomFilter}, G = 8 time-advanced layers, looked up layer by
   * layer. Not thread-safe: single-threaded cases only.
   */
  COMMONS_LAYERED,
  /**
   * The same filter looked up with {@code LayeredBloomFilter.contains(Hasher)}, which builds a whole-shape
   * filter per query. Not in the default parameters (select it with
   * {@code -p impl=COMMONS_LAYERED,COMMONS_LAYERED_CONTAINS}); only its lookups differ.
   */
  COMMONS_LAYERED_CONTAINS;

  /** An empty filter of this implementation for n items per window at false-positive rate fpp. */
  ExpiringUnderTest create(long n, double fpp) {
    return switch (this) {
      case OURS_EXPIRING -> new OursExpiring(n, fpp);
      case COMMONS_LAYERED -> new CommonsLayered(n, fpp, false);
      case COMMONS_LAYERED_CONTAINS -> new CommonsLayered(n, fpp, true);
    };
  }

  /** This implementation, if it may be shared between threads: only ours. */
  ExpiringImpl requireThreadSafe() {
    if (this != OURS_EXPIRING) {
      throw new IllegalArgumentException(this + " is not thread-safe: single-thread benchmarks only");
    }
    return this;
  }
}
