package org.concurrentbloom.benchmarks;

import java.util.SplittableRandom;

/** Builds the query arrays that lookup benchmarks walk. */
public final class QueryKeys {
  /** Keys per query array: a power of two, so a cursor wraps with a mask instead of a branch. */
  public static final int COUNT = 1 << 20;
  static final long SEED = 20240611L;

  private QueryKeys() {}

  /**
   * {@code count} keys of which half are present (indices drawn from [0, n), the keys a filled filter
   * holds) and half absent (drawn from [n, 2n)), in random order so that the branch predictor cannot
   * learn the answers.
   *
   * <p>The order is decided first and the key objects are created afterwards, in array order: they then
   * lie in memory in the order the benchmark reads them, and the hardware prefetcher streams them in.
   * Created in index order and shuffled afterwards, every query would first miss the cache on the key
   * object itself, which would add the same ~100 ns to every implementation and hide the differences.
   */
  public static Object[] halfPresent(KeyType type, long n, int count) {
    long[] indices = halfPresentIndices(n, count);
    Object[] keys = new Object[count];
    for (int i = 0; i < count; i++) {
      keys[i] = type.key(indices[i]);
    }
    return keys;
  }

  /** The key indices of {@link #halfPresent}: half below n, half in [n, 2n), shuffled. */
  static long[] halfPresentIndices(long n, int count) {
    SplittableRandom random = new SplittableRandom(SEED);
    long[] indices = new long[count];
    for (int i = 0; i < count; i++) {
      indices[i] = i < count / 2 ? random.nextLong(n) : n + random.nextLong(n);
    }
    for (int i = count - 1; i > 0; i--) { // Fisher-Yates
      int j = random.nextInt(i + 1);
      long t = indices[i];
      indices[i] = indices[j];
      indices[j] = t;
    }
    return indices;
  }

  /** Keys 0 .. count-1 in index order: distinct keys a fresh filter has never seen. */
  static Object[] fresh(KeyType type, int count) {
    Object[] keys = new Object[count];
    for (int i = 0; i < count; i++) {
      keys[i] = type.key(i);
    }
    return keys;
  }
}
