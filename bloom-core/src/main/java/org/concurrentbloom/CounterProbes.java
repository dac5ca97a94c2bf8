package org.concurrentbloom;

import java.util.Arrays;
import java.util.Objects;

/**
 * An item's counters, grouped by word: the distinct words in ascending order, each with the mask of
 * its nibbles the item uses (see {@link CounterWords}). The counters are the bits of the standard layout
 * ({@link Probes}: the same k positions in [0, m)), so a counting filter and a standard filter of the
 * same m and k put an item in the same places.
 *
 * <p>Grouping does three things: a probe that repeats a counter counts once (the item's counters are a
 * set, so add and remove change each by exactly 1), the counters of one word change in one CAS, and
 * the ascending word order is the order in which a remove takes its locks.
 *
 * <p>Thread use: one instance per thread, from {@link #hashed}; valid until that thread's next call.
 * No user code runs between {@link #hashed} returning and the caller's last read of the fields.
 */
final class CounterProbes {
  private static final ThreadLocal<CounterProbes> PER_THREAD = ThreadLocal.withInitial(CounterProbes::new);

  /** Distinct word indices, ascending; valid in [0, size). */
  int[] words = new int[16];
  /** The item's nibbles in {@code words[i]}. */
  long[] masks = new long[16];
  /** Scratch for the caller: a value read from {@code words[i]}. */
  long[] seen = new long[16];
  /** The item's k counter positions in probe order, once {@link #positions} or {@link #group} ran. */
  long[] positions = new long[16];
  int size;
  /**
   * The word of the first probe. Uniform over the words (the minimum of k words is not: it crowds the
   * low words), so adds that enter its stripe spread evenly over the stripes.
   */
  int firstWord;

  /** The item's hash halves, as {@link HashingSink} leaves them. */
  long h1;
  long h2;

  private CounterProbes() {}

  /** {@link #hashed(Object, Funnel, HashStrategy)} with strategy 1's hash. */
  static <T> CounterProbes hashed(T item, Funnel<? super T> funnel) {
    return hashed(item, funnel, HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
  }

  /**
   * The calling thread's instance with {@link #h1} and {@link #h2} set to the hash of {@code item} under
   * {@code strategy} (1, MurmurHash3, or 4, XXH3: the probes are the same). The
   * funnel runs before any field is written, so a funnel that re-enters a filter is harmless.
   */
  /** {@link #hashed} of a long key under {@link Funnels#longFunnel()}, without the box. */
  static CounterProbes hashedLong(long key, HashStrategy strategy) {
    CounterProbes p = PER_THREAD.get();
    if (strategy.isXxh3()) {
      p.h1 = Xxh3Keys.ofLong(key);
      p.h2 = Xxh3Keys.second(p.h1);
    } else {
      p.h1 = Murmur3.longH1(key);
      p.h2 = Murmur3.longH2(key);
    }
    return p;
  }

  static <T> CounterProbes hashed(T item, Funnel<? super T> funnel, HashStrategy strategy) {
    Objects.requireNonNull(item, "item");
    long a;
    long b;
    if (strategy.isXxh3()) {
      a = Xxh3Keys.of(item, funnel);
      b = Xxh3Keys.second(a);
    } else {
      HashingSink sink = HashingSink.acquire();
      try {
        sink.hash(item, funnel);
        a = sink.h1;
        b = sink.h2;
      } finally {
        sink.release();
      }
    }
    CounterProbes p = PER_THREAD.get();
    p.h1 = a;
    p.h2 = b;
    return p;
  }

  /** Fills {@link #positions} for a filter of m counters, k probes. */
  CounterProbes positions(long m, int k) {
    if (positions.length < k) {
      positions = new long[k];
    }
    Probes.positions(h1, h2, m, k, positions);
    return this;
  }

  /** Fills the words and masks of the hashed item's counters in a filter of m counters, k probes. */
  CounterProbes group(long m, int k) {
    if (words.length < k) {
      words = new int[k];
      masks = new long[k];
      seen = new long[k];
    }
    positions(m, k);
    size = 0;
    firstWord = CounterWords.wordOf(positions[0]);
    for (int i = 0; i < k; i++) {
      insert(CounterWords.wordOf(positions[i]), CounterWords.maskOf(positions[i]));
    }
    return this;
  }

  /** Insertion into the sorted words: k is small (7 at 1%), so this beats any sort. */
  private void insert(int word, long mask) {
    int i = size;
    while (i > 0 && words[i - 1] > word) {
      i--;
    }
    if (i > 0 && words[i - 1] == word) {
      masks[i - 1] |= mask;
      return;
    }
    System.arraycopy(words, i, words, i + 1, size - i);
    System.arraycopy(masks, i, masks, i + 1, size - i);
    words[i] = word;
    masks[i] = mask;
    size++;
  }

  @Override
  public String toString() {
    return "CounterProbes" + Arrays.toString(Arrays.copyOf(words, size));
  }
}
