package org.concurrentbloom.guard;

import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.FilterType;
import org.concurrentbloom.Funnels;

/**
 * How large a guard's filters may be, checked before the first build so that a configuration no
 * filter can meet fails in {@code build()} instead of failing, and being retried, forever in the
 * background. Two limits: the largest {@code long[]} (the core's own limit, about 2^37 bits), and, for
 * filters kept in this JVM, the heap: a rebuild holds the live filter and the one it fills, so two of
 * them must fit in {@link Runtime#maxMemory()}. Growth is capped at the same budget. Immutable.
 */
final class FilterBudget {
  /** The core's limit: Integer.MAX_VALUE - 8 words of 64 bits (Sizing.MAX_BITS, package-private there). */
  static final long MAX_BITS = 64L * (Integer.MAX_VALUE - 8);
  /** Filters of this many keys are built to measure the blocked layout's bits per key (it has no formula). */
  private static final int PROBE_KEYS = 1 << 14;

  private final double bitsPerKey;
  private final long maxBits;
  private final String limit;

  private FilterBudget(double bitsPerKey, long maxBits, String limit) {
    this.bitsPerKey = bitsPerKey;
    this.maxBits = maxBits;
    this.limit = limit;
  }

  /**
   * The budget of a guard at {@code fpp}; {@code heapBytes} is the heap the filters live in, or
   * negative for a shared backend whose filters live elsewhere.
   */
  static FilterBudget of(double fpp, FilterType layout, long heapBytes) {
    double perKey;
    if (layout == FilterType.BLOCKED) {
      // The blocked layout is sized by searching its own FPR model; its bits grow linearly with n
      // (whole 512-bit blocks aside), so a small filter's shape gives the rate.
      perKey = (double) BloomFilter.builder(Funnels.longFunnel()).expectedInsertions(PROBE_KEYS).fpp(fpp).blocked()
          .bitSize() / PROBE_KEYS;
    } else {
      perKey = -Math.log(fpp) / (Math.log(2) * Math.log(2)); // m/n of the standard layout
    }
    if (heapBytes >= 0 && heapBytes / 2 < MAX_BITS / 8) {
      return new FilterBudget(perKey, heapBytes / 2 * 8, "half the heap limit (Runtime.maxMemory() = "
          + heapBytes + " bytes; a rebuild holds two filters at once), " + heapBytes / 2 * 8 + " bits");
    }
    return new FilterBudget(perKey, MAX_BITS, "the largest long[] (" + MAX_BITS + " bits)");
  }

  /** About the bits a filter for {@code n} keys needs. */
  double bitsFor(long n) {
    return n * bitsPerKey;
  }

  /**
   * Checks that a filter for {@code n} keys at {@code fpp} fits.
   *
   * @throws IllegalArgumentException naming the size and the limit if it does not
   */
  void check(long n, double fpp) {
    double bits = bitsFor(n);
    if (!(bits <= maxBits - 512)) {
      throw new IllegalArgumentException(String.format("expectedInsertions=%d at fpp=%s needs about %.4g bits"
          + " (%.4g bytes) per filter, past the limit of %s", n, fpp, bits, bits / 8, limit));
    }
  }

  /** The largest capacity that still fits: growth stops there (the fpp then rises above target). */
  long maxCapacity() {
    return (long) Math.max(1, Math.floor((maxBits - 512) / bitsPerKey));
  }
}
