package org.concurrentbloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * 4-bit counters packed 16 to a {@code long}: counter {@code i} is bits {@code 4 (i mod 16)} to
 * {@code 4 (i mod 16) + 3} (least significant nibble first) of word {@code i / 16}. A counter at
 * {@link #STUCK} (15) has saturated: it may stand for more adds than it could count, so it is never
 * changed again, neither up nor down (a decrement could reach 0 while items are still present).
 *
 * <p>Word operations take a <em>mask</em> with {@code 0x1} in the low bit of every nibble they touch,
 * and work on all those nibbles with one compare-and-exchange, so counters of one word that belong to
 * one item change together. The nibble tests are SWAR (SIMD within a register): {@link #zeroNibbles}
 * and {@link #stuckNibbles} return such a mask for every nibble of a word at once.
 *
 * <p>Any thread may call any method; the CAS loops never lose another thread's change to the word.
 */
final class CounterWords {
  /** Counters per 64-bit word. */
  static final int PER_WORD = 16;
  /** The saturated counter value. */
  static final int STUCK = 15;
  /** The most counters a filter may have: one {@code long[]} of {@link Sizing#MAX_WORDS}. */
  static final long MAX_COUNTERS = (long) PER_WORD * Sizing.MAX_WORDS;
  /** The low bit of every nibble. */
  static final long LOW_BITS = 0x1111_1111_1111_1111L;

  private static final VarHandle WORD = MethodHandles.arrayElementVarHandle(long[].class);
  private static final long LOW_NIBBLES_OF_BYTES = 0x0F0F_0F0F_0F0F_0F0FL;

  private CounterWords() {}

  /** The number of words that hold {@code counters} counters. */
  static int wordsFor(long counters) {
    return (int) ((counters + PER_WORD - 1) / PER_WORD);
  }

  /** Checks a counting shape from any source; the message names the bad value and the limit. */
  static void checkShape(long counters, int hashFunctions) {
    if (counters < 1 || counters > MAX_COUNTERS) {
      throw new IllegalArgumentException(
          "counter count must be in [1, " + MAX_COUNTERS + "], was " + counters);
    }
    Sizing.checkShape(counters, hashFunctions);
  }

  /** The word holding counter {@code counter}. */
  static int wordOf(long counter) {
    return (int) (counter >>> 4);
  }

  /** The mask bit of counter {@code counter} within its word. */
  static long maskOf(long counter) {
    return 1L << ((counter & 15) << 2);
  }

  /** The value of counter {@code counter}, read with acquire semantics. */
  static int getAcquire(long[] words, long counter) {
    return (int) (AtomicWords.getAcquire(words, wordOf(counter)) >>> ((counter & 15) << 2)) & 15;
  }

  /** A mask with the low bit of each nibble of {@code v} that is 0. */
  static long zeroNibbles(long v) {
    return ~(v | v >>> 1 | v >>> 2 | v >>> 3) & LOW_BITS;
  }

  /** A mask with the low bit of each nibble of {@code v} that is 15 (stuck). */
  static long stuckNibbles(long v) {
    return v & v >>> 1 & v >>> 2 & v >>> 3 & LOW_BITS;
  }

  /** The number of non-zero counters in {@code v}. */
  static int nonZeroCount(long v) {
    return PER_WORD - Long.bitCount(zeroNibbles(v));
  }

  /**
   * Adds 1 to each counter of word {@code w} in {@code mask}, except those stuck at 15; returns true iff
   * one of them was 0 before. Volatile (sequentially consistent) when it writes.
   */
  static boolean incrementCas(long[] words, int w, long mask) {
    return incrementCas(words, w, mask, AtomicWords.getAcquire(words, w));
  }

  /** {@link #incrementCas(long[], int, long)} whose first CAS expects {@code seen}, read by the caller. */
  static boolean incrementCas(long[] words, int w, long mask, long seen) {
    for (;;) {
      long add = mask & ~stuckNibbles(seen);
      if (add == 0) {
        return false; // every counter is stuck (so none was 0): nothing to write
      }
      // No carry: each nibble that gets 1 is below 15.
      long witness = (long) WORD.compareAndExchange(words, w, seen, seen + add);
      if (witness == seen) {
        return (zeroNibbles(seen) & mask) != 0;
      }
      seen = witness;
    }
  }

  /** True iff every counter of {@code v} in {@code mask} is above 0. */
  static boolean allNonZero(long v, long mask) {
    return (zeroNibbles(v) & mask) == 0;
  }

  /**
   * Subtracts 1 from each counter of word {@code w} in {@code mask}, except those stuck at 15; returns
   * true iff one of them reached 0. The caller guarantees that none of them is 0 and that no other thread
   * decrements them meanwhile (see CountingBloomFilter); the check below turns a broken guarantee into
   * an exception instead of a borrow that would corrupt the neighbouring counter.
   */
  static boolean decrementCas(long[] words, int w, long mask) {
    long seen = AtomicWords.getAcquire(words, w);
    for (;;) {
      if ((zeroNibbles(seen) & mask) != 0) {
        throw new IllegalStateException("decrement of a zero counter in word " + w);
      }
      long sub = mask & ~stuckNibbles(seen);
      if (sub == 0) {
        return false;
      }
      long next = seen - sub; // no borrow: each nibble that loses 1 is above 0
      long witness = (long) WORD.compareAndExchange(words, w, seen, next);
      if (witness == seen) {
        return (zeroNibbles(next) & sub) != 0;
      }
      seen = witness;
    }
  }

  /**
   * Counter-wise saturating sum of two words: each nibble is min(15, a + b). Even and odd nibbles are
   * summed separately in byte lanes (sums up to 30 fit in a byte), and lanes that reach 15 are set to 15.
   */
  static long saturatingAdd(long a, long b) {
    return saturatedLanes((a & LOW_NIBBLES_OF_BYTES) + (b & LOW_NIBBLES_OF_BYTES))
        | saturatedLanes((a >>> 4 & LOW_NIBBLES_OF_BYTES) + (b >>> 4 & LOW_NIBBLES_OF_BYTES)) << 4;
  }

  /** Each byte of {@code sums} (0..30) capped at 15. */
  private static long saturatedLanes(long sums) {
    // Adding 113 sets a byte's top bit exactly when the byte is at least 15 (15 + 113 = 128, and
    // 30 + 113 = 143 does not carry into the next byte).
    long atLeast15 = ((sums + 0x7171_7171_7171_7171L) & 0x8080_8080_8080_8080L) >>> 7;
    long full = atLeast15 * 0xFF; // 0xFF in each such byte, 0 elsewhere
    return ((sums & ~full) | full) & LOW_NIBBLES_OF_BYTES;
  }

  /**
   * One 64-bit word of a standard Bloom filter's bits from the four counter words that hold the same
   * 64 positions: bit j is set iff counter j is non-zero.
   */
  static long bitsOf(long c0, long c1, long c2, long c3) {
    return nonZeroBits(c0) | nonZeroBits(c1) << 16 | nonZeroBits(c2) << 32 | nonZeroBits(c3) << 48;
  }

  /** 16 bits, bit j set iff nibble j of {@code v} is non-zero: the nibble flags gathered together. */
  private static long nonZeroBits(long v) {
    long x = ~zeroNibbles(v) & LOW_BITS; // flags at bits 0, 4, 8, ..., 60
    x = (x | x >>> 3) & 0x0303_0303_0303_0303L; // two flags per byte, at bits 0 and 1
    x = (x | x >>> 6) & 0x000F_000F_000F_000FL; // four per 16 bits
    x = (x | x >>> 12) & 0x0000_00FF_0000_00FFL; // eight per 32 bits
    return (x | x >>> 24) & 0xFFFFL;
  }

  /** The standard filter's bit words for {@code counters} counters held in {@code words}. */
  static long[] toBits(long[] words, long counters) {
    long[] bits = new long[Sizing.wordsFor(counters)];
    for (int b = 0; b < bits.length; b++) {
      int c = 4 * b;
      bits[b] = bitsOf(word(words, c), word(words, c + 1), word(words, c + 2), word(words, c + 3));
    }
    return bits;
  }

  private static long word(long[] words, int w) {
    return w < words.length ? words[w] : 0;
  }
}
