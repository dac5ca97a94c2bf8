package org.concurrentbloom;

/**
 * Guava's layout, strategy {@code MURMUR128_MITZ_64}, so that filters move between Guava and this library
 * with identical answers. The probes (from Guava's published source behaviour, see docs/GUAVA.md):
 *
 * <pre>
 *   combined = h1
 *   for i = 1..k:  probe bit (combined &amp; Long.MAX_VALUE) mod m;  combined += h2
 * </pre>
 *
 * with (h1, h2) the same MurmurHash3 x64 128 halves as the other layouts and m a multiple of 64. It is
 * plain double hashing with a division per probe, so it is slower than {@link StandardLayout}; use it to
 * read Guava's files or to write files Guava reads.
 */
final class GuavaLayout extends Layout {
  /** Guava's {@code BloomFilterStrategies.MURMUR128_MITZ_64.ordinal()}. */
  static final int GUAVA_ORDINAL = 1;
  /** Guava stores k in one unsigned byte. */
  static final int MAX_HASH_FUNCTIONS = 255;

  GuavaLayout(long bits, int hashFunctions) {
    super(bits, hashFunctions);
    if (bits % 64 != 0) {
      throw new IllegalArgumentException("a Guava-compatible filter's bit count must be a multiple of 64, was " + bits);
    }
    if (hashFunctions > MAX_HASH_FUNCTIONS) {
      throw new IllegalArgumentException(
          "Guava's format holds at most " + MAX_HASH_FUNCTIONS + " hash functions, was " + hashFunctions);
    }
  }

  /** Guava 33.4+'s shape for (n, p); see {@link Sizing#guavaShape}. */
  static GuavaLayout sized(long n, double p) {
    long[] shape = Sizing.guavaShape(n, p);
    return new GuavaLayout(shape[0], (int) shape[1]);
  }

  @Override
  FilterType type() {
    return FilterType.GUAVA;
  }

  @Override
  HashStrategy strategy() {
    return HashStrategy.GUAVA_MURMUR128_MITZ_64;
  }

  @Override
  boolean set(long[] words, long h1, long h2) {
    // First pass reads every probe's word so the misses overlap (see StandardLayout); then CAS.
    long m = bits;
    long all = 1;
    long combined = h1;
    for (int i = 0; i < hashFunctions; i++) {
      long x = (combined & Long.MAX_VALUE) % m;
      all &= AtomicWords.getAcquire(words, (int) (x >>> 6)) >>> x;
      combined += h2;
    }
    if ((all & 1) != 0) {
      return false;
    }
    boolean changed = false;
    combined = h1;
    for (int i = 0; i < hashFunctions; i++) {
      changed |= AtomicWords.setBitCas(words, (combined & Long.MAX_VALUE) % m);
      combined += h2;
    }
    return changed;
  }

  @Override
  boolean test(long[] words, long h1, long h2) {
    long m = bits;
    long combined = h1;
    for (int i = 0; i < hashFunctions; i++) {
      if (!AtomicWords.testBitAcquire(words, (combined & Long.MAX_VALUE) % m)) {
        return false;
      }
      combined += h2;
    }
    return true;
  }

  @Override
  long touch(long[] words, long h1, long h2) {
    long sum = 0;
    long combined = h1;
    for (int i = 0; i < hashFunctions; i++) {
      sum += words[(int) (((combined & Long.MAX_VALUE) % bits) >>> 6)];
      combined += h2;
    }
    return sum;
  }

  @Override
  double expectedFpp(double n) {
    return Sizing.expectedFpp(bits, hashFunctions, n);
  }
}
