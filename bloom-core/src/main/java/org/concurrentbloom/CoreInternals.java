package org.concurrentbloom;

import org.concurrentbloom.internal.CoreAccess;

/**
 * The core's side of {@link CoreAccess}: installed once by {@link BloomFilter}'s initializer. Stateless;
 * any thread may call any method.
 */
final class CoreInternals extends CoreAccess {
  @Override
  public <T> void hash(T item, Funnel<? super T> funnel, HashStrategy strategy, long[] into) {
    HashingSink sink = HashingSink.acquire();
    try {
      sink.hash(item, funnel, strategy);
      into[0] = sink.h1;
      into[1] = sink.h2;
    } finally {
      sink.release();
    }
  }

  @Override
  public void standardPositions(long h1, long h2, long m, int k, long[] into) {
    Probes.positions(h1, h2, m, k, into);
  }

  @Override
  public long[] standardShape(long n, double p) {
    Layout layout = FilterType.STANDARD.sizedLayout(n, p);
    return new long[] {layout.bits, layout.hashFunctions};
  }

  @Override
  public void checkShape(long bits, int hashFunctions) {
    Sizing.checkShape(bits, hashFunctions);
  }

  @Override
  public double expectedFpp(long bits, int hashFunctions, double n) {
    return Sizing.expectedFpp(bits, hashFunctions, n);
  }

  @Override
  public long estimateElements(long bits, int hashFunctions, long setBits) {
    return Sizing.estimateElements(bits, hashFunctions, setBits);
  }

  @Override
  public long[] copyWords(BloomFilter<?> filter) {
    return AtomicWords.copyAcquire(filter.currentTable().words);
  }

  @Override
  public <T> BloomFilter<T> standardFilter(Funnel<? super T> funnel, HashStrategy strategy, long bits,
      int hashFunctions, long expectedInsertions, double fpp, long count, long[] words) {
    Layout layout = new StandardLayout(bits, hashFunctions, strategy);
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
