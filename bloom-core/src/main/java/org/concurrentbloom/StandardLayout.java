package org.concurrentbloom;

/**
 * The classic layout: k probes anywhere in the m bits, by enhanced double hashing (see {@link Probes}).
 *
 * <p>{@link #set} makes two passes over the probes. The first only reads: its k loads are independent,
 * so the CPU overlaps their cache misses, and if every bit is already set the add is done without a
 * write. The second sets the missing bits with compare-and-exchange on lines that are now cached. One
 * pass would serialise the misses, because a locked instruction lets no later load start before it.
 */
final class StandardLayout extends Layout {
  StandardLayout(long bits, int hashFunctions) {
    super(bits, hashFunctions);
  }

  @Override
  FilterType type() {
    return FilterType.STANDARD;
  }

  @Override
  HashStrategy strategy() {
    return HashStrategy.MURMUR3_128_ENHANCED_DOUBLE;
  }

  @Override
  boolean set(long[] words, long h1, long h2) {
    if (Probes.walk(Probes.TEST_LOADING_ALL, words, null, h1, h2, bits, hashFunctions) != 0) {
      return false;
    }
    return Probes.walk(Probes.SET, words, null, h1, h2, bits, hashFunctions) != 0;
  }

  @Override
  boolean test(long[] words, long h1, long h2) {
    return Probes.walk(Probes.TEST, words, null, h1, h2, bits, hashFunctions) != 0;
  }

  @Override
  long touch(long[] words, long h1, long h2) {
    return Probes.walk(Probes.TOUCH, words, null, h1, h2, bits, hashFunctions);
  }

  @Override
  double expectedFpp(double n) {
    return Sizing.expectedFpp(bits, hashFunctions, n);
  }
}
