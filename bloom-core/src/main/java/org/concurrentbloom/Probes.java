package org.concurrentbloom;

/**
 * Hash strategy 1: where an item's k bits are. Documented for other languages in docs/HASHING.md.
 *
 * <pre>
 *   (h1, h2) = MurmurHash3_x64_128(funnel bytes, seed 0)  -- output bytes 0..7 and 8..15, little-endian
 *   x = floor(h1 * m / 2^64),  y = floor(h2 * m / 2^64)    -- unsigned "fast range" (Lemire 2019)
 *   for i = 1..k:  probe bit x;  x = (x + y) mod m;  y = (y + i) mod m
 * </pre>
 *
 * <p>This is enhanced double hashing (Dillinger and Manolios, "Bloom Filters in Probabilistic
 * Verification", FMCAD 2004): Kirsch and Mitzenmacher (2006) showed two hashes suffice for the
 * asymptotic FPR of k independent ones, and the growing step y repairs the degenerate cases of plain
 * double hashing (y = 0, or keys whose steps are equal or opposite, which would share most of their
 * probes). All arithmetic stays below 2m &lt; 2^38, so it is exact for any m a filter can have, including
 * m &ge; 2^32. The reductions are multiplications, not divisions: one 64x64-bit high product each.
 */
final class Probes {
  /*
   * What the one probe loop does at each position. Every caller passes one of these as a constant, so
   * once the JIT inlines walk() into it only that branch remains: one derivation, no cost for sharing it.
   */
  /** Acquire-read each bit and stop at the first clear one; 1 iff all are set. */
  static final int TEST = 0;
  /** Acquire-read every probe's word without stopping, so their misses overlap; 1 iff all bits are set. */
  static final int TEST_LOADING_ALL = 1;
  /** Turn every bit on with compare-and-exchange; 1 iff at least one was off. */
  static final int SET = 2;
  /** Plain-read every probe's word to bring it into cache; the sum of the words read. */
  static final int TOUCH = 3;
  /** Write the k positions into {@code out[0..k)}, in probe order; 0. */
  static final int POSITIONS = 4;

  private Probes() {}

  /**
   * The strategy-1 probe sequence of (h1, h2) over m cells, k probes, doing {@code op} at each position
   * in {@code words} (or writing it to {@code out}, for {@link #POSITIONS}). The only place the sequence
   * is derived; ProbeDerivationGoldenTest checks every user against an independent model.
   */
  static long walk(int op, long[] words, long[] out, long h1, long h2, long m, int k) {
    long x = reduce(h1, m);
    long y = reduce(h2, m);
    long acc = op == TEST || op == TEST_LOADING_ALL ? 1 : 0;
    for (int i = 1; ; i++) {
      switch (op) {
        case TEST:
          if (!AtomicWords.testBitAcquire(words, x)) {
            return 0;
          }
          break;
        case TEST_LOADING_ALL:
          acc &= AtomicWords.getAcquire(words, (int) (x >>> 6)) >>> x; // a long shift uses x mod 64
          break;
        case SET:
          if (AtomicWords.setBitCas(words, x)) {
            acc = 1;
          }
          break;
        case TOUCH:
          acc += words[(int) (x >>> 6)];
          break;
        default:
          out[i - 1] = x;
      }
      if (i == k) {
        return acc & (op == TOUCH ? -1L : 1L);
      }
      x = nextIndex(x, y, m);
      y = nextStep(y, i, m);
    }
  }

  /** floor(h * m / 2^64) with h read as unsigned; m must be positive. */
  static long reduce(long h, long m) {
    // Math.unsignedMultiplyHigh is Java 18+; the signed high product plus m when h's top bit is set
    // equals the unsigned one (m being non-negative).
    return Math.multiplyHigh(h, m) + ((h >> 63) & m);
  }

  /** The next y after probe i (1-based), kept in [0, m). */
  private static long nextStep(long y, int i, long m) {
    y += i;
    return y >= m ? y % m : y;
  }

  /** The next x, kept in [0, m): both operands are below m, so one subtraction suffices. */
  private static long nextIndex(long x, long y, long m) {
    x += y;
    return x >= m ? x - m : x;
  }
}
