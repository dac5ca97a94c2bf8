package org.concurrentbloom.benchmarks;

import java.util.EnumSet;
import java.util.Set;

/** The filters compared, as a JMH {@code @Param}. */
public enum Impl {
  /** bloom-core, {@code BloomFilter.create}: k probes anywhere in the bit array (hash strategy 4, XXH3). */
  OURS_STANDARD,
  /** bloom-core, {@code builder(..).blocked()}: all k probes in one 512-bit block (strategy 5, XXH3). */
  OURS_BLOCKED,
  /**
   * OURS_STANDARD with hash strategy 1 (UTF-8 + MurmurHash3), the default before issue 14. Not in the
   * suite's default parameters: select it with {@code -p impl=OURS_STANDARD_MURMUR3,OURS_STANDARD} to compare
   * the two hashes in one run.
   */
  OURS_STANDARD_MURMUR3,
  /** OURS_BLOCKED with hash strategy 2 (UTF-8 + MurmurHash3); selected as {@link #OURS_STANDARD_MURMUR3}. */
  OURS_BLOCKED_MURMUR3,
  /** Guava 33's BloomFilter. */
  GUAVA,
  /** Commons Collections 4.6's SimpleBloomFilter; not thread-safe, so single-threaded cases only. */
  COMMONS,
  /** Apache DataSketches 6.1's BloomFilter (xxHash64); not thread-safe, so single-threaded cases only. */
  DATASKETCHES,
  /**
   * FastFilter_java 1.0.2's BlockedBloom: long keys only (it takes 64-bit keys), single-threaded cases
   * only. The String-keyed benchmarks leave it out; {@link LongKeysBenchmark} measures it.
   */
  FASTFILTER;

  private static final Set<Impl> NOT_THREAD_SAFE = EnumSet.of(COMMONS, DATASKETCHES, FASTFILTER);

  /**
   * This implementation, if it may be shared between threads. Guards the two-thread states against a
   * command-line {@code -p impl=COMMONS} (or DATASKETCHES, FASTFILTER), which would otherwise measure a
   * corrupting data race.
   */
  Impl requireThreadSafe() {
    if (NOT_THREAD_SAFE.contains(this)) {
      throw new IllegalArgumentException(this + " is not thread-safe: single-thread benchmarks only");
    }
    return this;
  }

  /** This implementation, if it is one of ours: only bloom-core has batch lookups. */
  Impl requireOurs() {
    if (!isOurs()) {
      throw new IllegalArgumentException(this + " has no batch lookup: only bloom-core's filters (OURS_*) do");
    }
    return this;
  }

  private boolean isOurs() {
    return this == OURS_STANDARD || this == OURS_BLOCKED || this == OURS_STANDARD_MURMUR3
        || this == OURS_BLOCKED_MURMUR3;
  }

  /** For bloom-core's filters: whether the layout is blocked. */
  boolean isBlocked() {
    return this == OURS_BLOCKED || this == OURS_BLOCKED_MURMUR3;
  }

  /** For bloom-core's filters: whether the hash is MurmurHash3 (strategies 1 and 2) rather than XXH3. */
  boolean isMurmur3() {
    return this == OURS_STANDARD_MURMUR3 || this == OURS_BLOCKED_MURMUR3;
  }

  /** Whether this implementation takes keys of {@code type}: all do both, except FastFilter (longs). */
  boolean supports(KeyType type) {
    return this != FASTFILTER || type == KeyType.LONG;
  }

  /** An empty filter of this implementation for n keys of {@code type} at false-positive rate fpp. */
  FilterUnderTest create(KeyType type, long n, double fpp) {
    return switch (this) {
      case OURS_STANDARD, OURS_BLOCKED, OURS_STANDARD_MURMUR3, OURS_BLOCKED_MURMUR3 -> new OursFilter(type, n, fpp, this);
      case GUAVA -> new GuavaFilter(type, n, fpp);
      case COMMONS -> new CommonsFilter(n, fpp);
      case DATASKETCHES -> new DataSketchesFilter(n, fpp);
      case FASTFILTER -> new FastFilterBloom(type, n, fpp);
    };
  }
}
