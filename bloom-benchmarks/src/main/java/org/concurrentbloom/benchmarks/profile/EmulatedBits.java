package org.concurrentbloom.benchmarks.profile;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.concurrentbloom.internal.BitIndexer;

/**
 * <b>An emulation, not the library's filter.</b> bloom-core has no public query path that takes a
 * precomputed (h1, h2), so the memory-access-only benchmark runs on this copy of the standard layout's
 * query: the same m and k as {@code BloomFilter.create(funnel, n, p)} (taken from
 * {@link BitIndexer#sized}), the same probe sequence (hash strategy 1 of docs/HASHING.md, written out
 * again here), the same bits (each key's positions from {@link BitIndexer#indexes}), and the same kind of
 * load (an acquire read of the word, a plain load on x86), stopping at the first clear bit as the filter
 * does. {@code EmulatedBitsTest} checks that it answers exactly as the real filter.
 *
 * <p>Filled by one thread, then read by any.
 */
final class EmulatedBits {
  private static final VarHandle WORD = MethodHandles.arrayElementVarHandle(long[].class);

  private final long[] words;
  private final long m;
  private final int k;

  EmulatedBits(long m, int k) {
    if (m < 64 || m % 64 != 0 || m / 64 > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("m must be a positive multiple of 64 that fits a long[]: " + m);
    }
    this.words = new long[(int) (m / 64)];
    this.m = m;
    this.k = k;
  }

  /** Sets the bits BitIndexer reports for (h1, h2), as {@code add} would (single-threaded fill). */
  void add(BitIndexer<?> indexer, long h1, long h2, long[] scratch) {
    indexer.indexes(h1, h2, scratch);
    for (int i = 0; i < k; i++) {
      long x = scratch[i];
      words[(int) (x >>> 6)] |= 1L << x;
    }
  }

  /** The filter's query for an already hashed key: every probe's bit set? */
  boolean test(long h1, long h2) {
    long x = reduce(h1, m);
    long y = reduce(h2, m);
    for (int i = 1; ; i++) {
      long word = (long) WORD.getAcquire(words, (int) (x >>> 6));
      if ((word & (1L << x)) == 0) {
        return false;
      }
      if (i == k) {
        return true;
      }
      x += y;
      if (x >= m) {
        x -= m;
      }
      y += i;
      if (y >= m) {
        y %= m;
      }
    }
  }

  /** floor(h * m / 2^64) with h unsigned: the signed high product, plus m when h's top bit is set. */
  private static long reduce(long h, long m) {
    return Math.multiplyHigh(h, m) + ((h >> 63) & m);
  }
}
