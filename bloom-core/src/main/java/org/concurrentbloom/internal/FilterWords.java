package org.concurrentbloom.internal;

import java.util.Objects;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.HashStrategy;

/**
 * <b>Internal, not API</b> (see the package comment). A {@link BloomFilter}'s bit array as plain words, out and in, for code that stores the bits elsewhere
 * (a Redis string) and converts them itself. Words are 64-bit: bit i of the filter is bit (i mod 64),
 * least significant first, of word i / 64, as in docs/FORMAT.md. Any thread may call these methods.
 */
public final class FilterWords {
  private FilterWords() {}

  /**
   * A copy of the filter's words, ceil(m / 64) of them. It holds every add that finished before this
   * call began (read with acquire semantics); adds running meanwhile may or may not be in it.
   */
  public static long[] copyOf(BloomFilter<?> filter) {
    Objects.requireNonNull(filter, "filter");
    return CoreAccess.get().copyWords(filter);
  }

  /** {@link #standardFilter(Funnel, HashStrategy, long, int, long, double, long, long[])} of strategy 1. */
  public static <T> BloomFilter<T> standardFilter(Funnel<? super T> funnel, long bits, int hashFunctions,
      long expectedInsertions, double fpp, long count, long[] words) {
    return standardFilter(funnel, HashStrategy.MURMUR3_128_ENHANCED_DOUBLE, bits, hashFunctions, expectedInsertions,
        fpp, count, words);
  }

  /**
   * A standard-layout filter of hash strategy {@code strategy} (1 or 4) over {@code words}, which it
   * takes over (the caller must not use the array afterwards): what {@link BloomFilter#readFrom} would
   * return for a file with these fields.
   *
   * @throws IllegalArgumentException if the strategy is not one of the standard layout's, the shape, n,
   *     p or count is invalid, the array's length is not ceil(bits / 64), or a bit past {@code bits} is
   *     set; the message names the bad value
   */
  public static <T> BloomFilter<T> standardFilter(Funnel<? super T> funnel, HashStrategy strategy, long bits,
      int hashFunctions, long expectedInsertions, double fpp, long count, long[] words) {
    Objects.requireNonNull(funnel, "funnel");
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(words, "words");
    return CoreAccess.get().standardFilter(funnel, strategy, bits, hashFunctions, expectedInsertions, fpp, count,
        words);
  }
}
