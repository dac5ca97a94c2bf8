package org.concurrentbloom.benchmarks.strategies;

/**
 * The unsynchronised filter that the lock-based strategies wrap: a {@code long[]} and plain reads and
 * writes. Not thread-safe on its own: two unguarded adds to one word can each read it, set their bit
 * and write it back, and the second write erases the first bit, a false negative for good.
 */
final class PlainBits {
  final long[] words;
  final long bits;
  final int k;

  PlainBits(long n, double fpp) {
    bits = Probes.bits(n, fpp);
    k = Probes.hashFunctions(fpp);
    words = new long[Math.toIntExact(bits >>> 6)];
  }

  boolean add(long h1, long h2) {
    long x = Probes.reduce(h1, bits);
    long y = Probes.reduce(h2, bits);
    boolean changed = false;
    for (int i = 1; ; i++) {
      changed |= setBit(x);
      if (i == k) {
        return changed;
      }
      x = Probes.nextIndex(x, y, bits);
      y = Probes.nextStep(y, i, bits);
    }
  }

  boolean mightContain(long h1, long h2) {
    long x = Probes.reduce(h1, bits);
    long y = Probes.reduce(h2, bits);
    for (int i = 1; ; i++) {
      if (!testBit(x)) {
        return false;
      }
      if (i == k) {
        return true;
      }
      x = Probes.nextIndex(x, y, bits);
      y = Probes.nextStep(y, i, bits);
    }
  }

  /** Sets bit {@code bit}; true iff it was clear. */
  boolean setBit(long bit) {
    int w = (int) (bit >>> 6);
    long mask = 1L << bit; // a long shift uses the low 6 bits of the count
    long old = words[w];
    words[w] = old | mask;
    return (old & mask) == 0;
  }

  boolean testBit(long bit) {
    return (words[(int) (bit >>> 6)] & (1L << bit)) != 0;
  }
}
