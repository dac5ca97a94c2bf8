package org.concurrentbloom;

/**
 * Guava's older layout, strategy {@code MURMUR128_MITZ_32} (ordinal 0), which older Guava releases
 * wrote and every Guava release still reads. Read-only here: {@link GuavaInterop#readFrom} loads such a
 * file so that its answers stay exactly Guava's, but nothing writes this layout (the CBLM format has no
 * strategy id for it, and {@link GuavaInterop#writeTo} writes only {@code MURMUR128_MITZ_64}). The probes,
 * as Guava's documented behaviour places them (docs/GUAVA.md):
 *
 * <pre>
 *   a = (int) h1;  b = (int) (h1 &gt;&gt;&gt; 32)          32-bit halves of the first 64-bit hash
 *   for i = 1..k:  c = a + i * b  (32-bit, wrapping);  if c &lt; 0 then c = ~c;  probe bit c mod m
 * </pre>
 *
 * Only the first 64 bits of the 128-bit hash are used, so it is a weaker hash than the other layouts'
 * (and limited to 2^31 distinct probe positions); rebuild into another layout when the source data is
 * at hand.
 */
final class GuavaMitz32Layout extends Layout {
  /** Guava's {@code BloomFilterStrategies.MURMUR128_MITZ_32.ordinal()}. */
  static final int GUAVA_ORDINAL = 0;

  GuavaMitz32Layout(long bits, int hashFunctions) {
    super(bits, hashFunctions);
    if (bits % 64 != 0) {
      throw new IllegalArgumentException("a Guava-compatible filter's bit count must be a multiple of 64, was " + bits);
    }
    if (hashFunctions > GuavaLayout.MAX_HASH_FUNCTIONS) {
      throw new IllegalArgumentException(
          "Guava's format holds at most " + GuavaLayout.MAX_HASH_FUNCTIONS + " hash functions, was " + hashFunctions);
    }
  }

  @Override
  FilterType type() {
    return FilterType.GUAVA;
  }

  /** Distinguishes this layout from {@link GuavaLayout} in {@link Layout#sameShape}: the two never merge. */
  @Override
  HashStrategy strategy() {
    return HashStrategy.GUAVA_MURMUR128_MITZ_32;
  }

  @Override
  String name() {
    return "guava-mitz32";
  }

  /** Bit index of probe i (1-based). */
  private long probe(int a, int b, int i) {
    int c = a + i * b;
    if (c < 0) {
      c = ~c;
    }
    return c % bits;
  }

  @Override
  boolean set(long[] words, long h1, long h2) {
    int a = (int) h1;
    int b = (int) (h1 >>> 32);
    boolean changed = false;
    for (int i = 1; i <= hashFunctions; i++) {
      changed |= AtomicWords.setBitCas(words, probe(a, b, i));
    }
    return changed;
  }

  @Override
  boolean test(long[] words, long h1, long h2) {
    int a = (int) h1;
    int b = (int) (h1 >>> 32);
    for (int i = 1; i <= hashFunctions; i++) {
      if (!AtomicWords.testBitAcquire(words, probe(a, b, i))) {
        return false;
      }
    }
    return true;
  }

  @Override
  long touch(long[] words, long h1, long h2) {
    int a = (int) h1;
    int b = (int) (h1 >>> 32);
    long sum = 0;
    for (int i = 1; i <= hashFunctions; i++) {
      sum += words[(int) (probe(a, b, i) >>> 6)];
    }
    return sum;
  }

  @Override
  double expectedFpp(double n) {
    return Sizing.expectedFpp(bits, hashFunctions, n);
  }
}
