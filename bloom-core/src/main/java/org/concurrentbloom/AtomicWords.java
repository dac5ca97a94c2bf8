package org.concurrentbloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Atomic access to the {@code long[]} words that hold a filter's bits. Bit {@code i} is bit
 * {@code i & 63} (least significant first) of word {@code i >>> 6}.
 *
 * <p>Any thread may call any method. Writers only ever turn bits on, with a compare-and-exchange per
 * changed word, so two threads setting different bits of one word can never erase each other's bit:
 * the lost update that {@code words[w] |= mask} allows (shown in bloom-jcstress) cannot happen here.
 * A writer whose bit is already set does not write at all, which keeps a saturated filter's cache
 * lines shared instead of bouncing between cores.
 */
final class AtomicWords {
  private static final VarHandle WORD = MethodHandles.arrayElementVarHandle(long[].class);

  private AtomicWords() {}

  /** Reads word {@code w} with acquire semantics: later reads cannot move before it. */
  static long getAcquire(long[] words, int w) {
    return (long) WORD.getAcquire(words, w);
  }

  /** Reads word {@code w} with volatile (sequentially consistent) semantics. */
  static long getVolatile(long[] words, int w) {
    return (long) WORD.getVolatile(words, w);
  }

  /** Tests bit {@code bit} with an acquire read. */
  static boolean testBitAcquire(long[] words, long bit) {
    return (getAcquire(words, (int) (bit >>> 6)) & (1L << bit)) != 0;
  }

  /**
   * Sets bit {@code bit}; returns true iff this call turned it on. Volatile (sequentially consistent)
   * when it writes, acquire when the bit was already set.
   */
  static boolean setBitCas(long[] words, long bit) {
    int w = (int) (bit >>> 6);
    long mask = 1L << bit;
    long seen = getAcquire(words, w);
    while ((seen & mask) == 0) {
      long witness = (long) WORD.compareAndExchange(words, w, seen, seen | mask);
      if (witness == seen) {
        return true;
      }
      seen = witness;
    }
    return false;
  }

  /** ORs {@code bits} into word {@code w} atomically; returns true iff any bit changed. */
  static boolean orWordCas(long[] words, int w, long bits) {
    return orWordFrom(words, w, bits, getAcquire(words, w));
  }

  /**
   * {@link #orWordCas} given {@code seen}, a value the word held earlier (bits are only ever turned on,
   * so a stale value at worst costs a failed CAS, which returns the current one). Nothing is written if
   * {@code seen} has the bits already. A batch reads its words in one pass and ORs in the next.
   */
  static boolean orWordFrom(long[] words, int w, long bits, long seenEarlier) {
    long seen = seenEarlier;
    while ((seen | bits) != seen) {
      long witness = (long) WORD.compareAndExchange(words, w, seen, seen | bits);
      if (witness == seen) {
        return true;
      }
      seen = witness;
    }
    return false;
  }

  /** Counts set bits, reading each word with acquire semantics. */
  static long bitCountAcquire(long[] words) {
    long n = 0;
    for (int w = 0; w < words.length; w++) {
      n += Long.bitCount(getAcquire(words, w));
    }
    return n;
  }

  /** Copies the words, each read with acquire semantics, so every bit set before the call is in the copy. */
  static long[] copyAcquire(long[] words) {
    long[] copy = new long[words.length];
    for (int w = 0; w < words.length; w++) {
      copy[w] = getAcquire(words, w);
    }
    return copy;
  }

  /** True iff both arrays hold the same words, each read with acquire semantics; equal lengths assumed. */
  static boolean equalAcquire(long[] a, long[] b) {
    for (int i = 0; i < a.length; i++) {
      if (getAcquire(a, i) != getAcquire(b, i)) {
        return false;
      }
    }
    return true;
  }

  /** {@code seed} folded with every word (h = 31h + hash(word)), each read with acquire semantics. */
  static int hashAcquire(int seed, long[] words) {
    int h = seed;
    for (int i = 0; i < words.length; i++) {
      h = 31 * h + Long.hashCode(getAcquire(words, i));
    }
    return h;
  }
}
