package org.concurrentbloom.benchmarks.strategies;

/**
 * Filter shape and probe positions shared by the strategies: the same rules as bloom-core's standard
 * layout (docs/HASHING.md), so that the strategies do the same memory work as our real filter.
 *
 * <pre>
 *   m = ceil(-n ln p / (ln 2)^2) rounded up to whole 64-bit words,  k = round(-ln p / ln 2)
 *   x = floor(h1 * m / 2^64), y = floor(h2 * m / 2^64)          -- unsigned multiply-high, no division
 *   for i = 1..k:  probe bit x;  x = (x + y) mod m;  y = (y + i) mod m
 * </pre>
 */
final class Probes {
  private Probes() {}

  /** m for n keys at false-positive rate p. */
  static long bits(long n, double p) {
    long bits = (long) Math.ceil(-n * Math.log(p) / (Math.log(2) * Math.log(2)));
    return Math.max(64, (bits + 63) & ~63L);
  }

  /** k for false-positive rate p. */
  static int hashFunctions(double p) {
    return (int) Math.max(1, Math.round(-Math.log(p) / Math.log(2)));
  }

  /** floor(h * m / 2^64), h read as unsigned. */
  static long reduce(long h, long m) {
    // Java 17 has no unsignedMultiplyHigh: the signed high product needs m added back when h < 0.
    return Math.multiplyHigh(h, m) + ((h >> 63) & m);
  }

  /** x after a probe: (x + y) mod m, both below m. */
  static long nextIndex(long x, long y, long m) {
    x += y;
    return x >= m ? x - m : x;
  }

  /** y after probe i (1-based): (y + i) mod m. */
  static long nextStep(long y, int i, long m) {
    y += i;
    return y >= m ? y % m : y;
  }
}
