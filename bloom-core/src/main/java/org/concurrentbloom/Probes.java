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
  private Probes() {}

  /**
   * Strategy 1's probe sequence of (h1, h2) over m cells, k probes, for every user but the hot query loop
   * of StandardLayout.test, which takes the same steps from this class (ProbeDerivationGoldenTest checks
   * every user against an independent model). Callers make one per
   * operation and let it go; it never escapes, so the JIT keeps its fields in registers instead of
   * allocating it (escape analysis; AllocationFreeHashingTest checks that lookups allocate nothing).
   * One thread.
   */
  static final class Cursor {
    private final long m;
    private final int k;
    private long x;
    private long y;
    private int i;

    Cursor(long h1, long h2, long m, int k) {
      this.m = m;
      this.k = k;
      this.x = reduce(h1, m);
      this.y = reduce(h2, m);
    }

    boolean hasNext() {
      return i < k;
    }

    /** The next position, in [0, m). */
    long next() {
      long position = x;
      if (++i < k) {
        x = nextIndex(x, y, m);
        y = nextStep(y, i, m);
      }
      return position;
    }
  }

  /** Writes the k positions into {@code out[0..k)}, in probe order. */
  static void positions(long h1, long h2, long m, int k, long[] out) {
    Cursor c = new Cursor(h1, h2, m, k);
    for (int i = 0; c.hasNext(); i++) {
      out[i] = c.next();
    }
  }

  /** floor(h * m / 2^64) with h read as unsigned; m must be positive. */
  static long reduce(long h, long m) {
    // Math.unsignedMultiplyHigh is Java 18+; the signed high product plus m when h's top bit is set
    // equals the unsigned one (m being non-negative).
    return Math.multiplyHigh(h, m) + ((h >> 63) & m);
  }

  /** The next y after probe i (1-based), kept in [0, m). Package-private for StandardLayout.test. */
  static long nextStep(long y, int i, long m) {
    y += i;
    return y >= m ? y % m : y;
  }

  /** The next x, kept in [0, m): both operands are below m, so one subtraction suffices. */
  static long nextIndex(long x, long y, long m) {
    x += y;
    return x >= m ? x - m : x;
  }
}
