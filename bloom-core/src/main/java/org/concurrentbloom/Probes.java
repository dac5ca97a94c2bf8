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
  /** The id stored in files. */
  static final int STRATEGY_MURMUR3_128_EDH = 1;

  private Probes() {}

  /** floor(h * m / 2^64) with h read as unsigned; m must be positive. */
  static long reduce(long h, long m) {
    // Math.unsignedMultiplyHigh is Java 18+; the signed high product plus m when h's top bit is set
    // equals the unsigned one (m being non-negative).
    return Math.multiplyHigh(h, m) + ((h >> 63) & m);
  }

  /** The next y after probe i (1-based), kept in [0, m). */
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
