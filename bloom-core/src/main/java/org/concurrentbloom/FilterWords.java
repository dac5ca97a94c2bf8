package org.concurrentbloom;

import java.util.Objects;

/**
 * A {@link BloomFilter}'s bit array as plain words, out and in, for code that stores the bits elsewhere
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
    return AtomicWords.copyAcquire(filter.currentWords());
  }

  /**
   * A standard-layout filter over {@code words}, which it takes over (the caller must not use the array
   * afterwards): what {@link BloomFilter#readFrom} would return for a file with these fields.
   *
   * @throws IllegalArgumentException if the shape, n, p or count is invalid, the array's length is not
   *     ceil(bits / 64), or a bit past {@code bits} is set; the message names the bad value
   */
  public static <T> BloomFilter<T> standardFilter(Funnel<? super T> funnel, long bits, int hashFunctions,
      long expectedInsertions, double fpp, long count, long[] words) {
    Objects.requireNonNull(funnel, "funnel");
    Objects.requireNonNull(words, "words");
    Layout layout = new StandardLayout(bits, hashFunctions);
    Sizing.checkExpectedInsertions(expectedInsertions);
    Sizing.checkFpp(fpp);
    if (count < 0) {
      throw new IllegalArgumentException("count must be >= 0, was " + count);
    }
    int wordCount = Sizing.wordsFor(bits);
    if (words.length != wordCount) {
      throw new IllegalArgumentException(
          "a filter of " + bits + " bits needs " + wordCount + " words, was given " + words.length);
    }
    int tailBits = (int) (bits & 63);
    if (tailBits != 0 && (words[wordCount - 1] >>> tailBits) != 0) {
      throw new IllegalArgumentException("bits past m=" + bits + " are set in the last word");
    }
    return BloomFilter.loaded(funnel, layout, expectedInsertions, fpp, words, count);
  }
}
