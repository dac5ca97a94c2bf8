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
  /** 1 (MurmurHash3) or 4 (XXH3): only the hash differs, the probes from (h1, h2) are the same. */
  private final HashStrategy strategy;

  /** Strategy 1's layout: the one of every file written before strategy 4, of Redis and of BitIndexer. */
  StandardLayout(long bits, int hashFunctions) {
    this(bits, hashFunctions, HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
  }

  StandardLayout(long bits, int hashFunctions, HashStrategy strategy) {
    super(bits, hashFunctions);
    this.strategy = FilterType.STANDARD.requireAdmitted(strategy);
  }

  /** m = -n ln p / (ln 2)^2 in whole words, k = round(-log2 p); see {@link Sizing}. */
  static StandardLayout sized(long n, double p, HashStrategy strategy) {
    return new StandardLayout(Sizing.optimalBits(n, p), Sizing.optimalHashFunctions(n, p), strategy);
  }

  @Override
  FilterType type() {
    return FilterType.STANDARD;
  }

  @Override
  HashStrategy strategy() {
    return strategy;
  }

  @Override
  boolean set(long[] words, long h1, long h2) {
    if (allSetLoadingEveryProbe(words, h1, h2)) {
      return false;
    }
    boolean changed = false;
    for (Probes.Cursor c = new Probes.Cursor(h1, h2, bits, hashFunctions); c.hasNext(); ) {
      changed |= AtomicWords.setBitCas(words, c.next());
    }
    return changed;
  }

  /** Like {@link #test} but without stopping at the first clear bit, so that every line gets loaded. */
  private boolean allSetLoadingEveryProbe(long[] words, long h1, long h2) {
    long all = 1;
    for (Probes.Cursor c = new Probes.Cursor(h1, h2, bits, hashFunctions); c.hasNext(); ) {
      long x = c.next();
      all &= AtomicWords.getAcquire(words, (int) (x >>> 6)) >>> x; // a long shift uses x mod 64
    }
    return (all & 1) != 0;
  }

  /**
   * The one loop that walks the probes without {@link Probes.Cursor}, with the same steps from
   * {@link Probes}: the query stops at the first clear bit, and written with the cursor it measured about
   * 10 ns slower per String lookup at n = 1M (docs/BENCHMARKS.md, "Refactoring check").
   * ProbeDerivationGoldenTest checks it against the model like every other walk.
   */
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
    long sum = 0;
    for (Probes.Cursor c = new Probes.Cursor(h1, h2, bits, hashFunctions); c.hasNext(); ) {
      sum += words[(int) (c.next() >>> 6)];
    }
    return sum;
  }

  @Override
  double expectedFpp(double n) {
    return Sizing.expectedFpp(bits, hashFunctions, n);
  }
}
