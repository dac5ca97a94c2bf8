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
  static final int TYPE = 1;

  StandardLayout(long bits, int hashFunctions) {
    super(bits, hashFunctions);
  }

  @Override
  int type() {
    return TYPE;
  }

  @Override
  int strategy() {
    return Probes.STRATEGY_MURMUR3_128_EDH;
  }

  @Override
  String name() {
    return "standard";
  }

  @Override
  boolean set(long[] words, long h1, long h2) {
    if (allSetLoadingEveryProbe(words, h1, h2)) {
      return false;
    }
    long m = bits;
    long x = Probes.reduce(h1, m);
    long y = Probes.reduce(h2, m);
    boolean changed = false;
    for (int i = 1; ; i++) {
      changed |= AtomicWords.setBitCas(words, x);
      if (i == hashFunctions) {
        return changed;
      }
      x = Probes.nextIndex(x, y, m);
      y = Probes.nextStep(y, i, m);
    }
  }

  /** Like {@link #test} but without stopping at the first clear bit, so that every line gets loaded. */
  private boolean allSetLoadingEveryProbe(long[] words, long h1, long h2) {
    long m = bits;
    long x = Probes.reduce(h1, m);
    long y = Probes.reduce(h2, m);
    long all = 1;
    for (int i = 1; ; i++) {
      all &= AtomicWords.getAcquire(words, (int) (x >>> 6)) >>> x; // a long shift uses x mod 64
      if (i == hashFunctions) {
        return (all & 1) != 0;
      }
      x = Probes.nextIndex(x, y, m);
      y = Probes.nextStep(y, i, m);
    }
  }

  @Override
  boolean test(long[] words, long h1, long h2) {
    long m = bits;
    long x = Probes.reduce(h1, m);
    long y = Probes.reduce(h2, m);
    for (int i = 1; ; i++) {
      if (!AtomicWords.testBitAcquire(words, x)) {
        return false;
      }
      if (i == hashFunctions) {
        return true;
      }
      x = Probes.nextIndex(x, y, m);
      y = Probes.nextStep(y, i, m);
    }
  }

  @Override
  long touch(long[] words, long h1, long h2) {
    long m = bits;
    long x = Probes.reduce(h1, m);
    long y = Probes.reduce(h2, m);
    long sum = 0;
    for (int i = 1; ; i++) {
      sum += words[(int) (x >>> 6)];
      if (i == hashFunctions) {
        return sum;
      }
      x = Probes.nextIndex(x, y, m);
      y = Probes.nextStep(y, i, m);
    }
  }

  @Override
  double expectedFpp(double n) {
    return Sizing.expectedFpp(bits, hashFunctions, n);
  }
}
