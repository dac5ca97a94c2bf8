package org.concurrentbloom.benchmarks;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import org.fastfilter.bloom.BlockedBloom;

/**
 * FastFilter_java 1.0.2's blocked Bloom filter, {@code org.fastfilter.bloom.BlockedBloom}: 64-bit keys
 * only, so long keys only (there is no String API; see docs/BENCHMARKS.md for why no String adapter).
 *
 * <p>Each key sets 4 bits in two 64-bit words that lie at most 16 words apart, hashed from the key with
 * the library's own 64-bit mix and a per-filter random seed. Its only size knob is bits per key, and it
 * has no false-positive-rate parameter: 11 bits per key is the smallest whole number that reaches
 * p = 1% (0.95% measured at n = 20k and 1M; 10 bits per key give 1.29%), so the filter is built with
 * that, against about 9.6 for a standard Bloom filter at 1%.
 *
 * <p>The library's public factory, {@code BlockedBloom.construct(long[] keys, bitsPerKey)}, allocates a
 * filter for {@code keys.length} keys and adds them one by one with the public {@code add(long)}
 * ({@code supportsAdd()} is true). Its sizing constructor {@code BlockedBloom(entryCount, bitsPerKey)} is
 * package-private, so this adapter calls it by reflection, once per filter at set-up, and then adds
 * through {@code add(long)}: the filled filter is the one {@code construct} would build, and the add
 * benchmarks can start from an empty filter of the size n asks for. Keys are unboxed before the call;
 * lookups and adds allocate nothing.
 *
 * <p>Not thread-safe: {@code add} is a plain read-modify-write of a {@code long[]}. One thread only.
 */
public final class FastFilterBloom implements FilterUnderTest {
  /** Bits per key for p = 1% (see the class comment); the only rate the suite uses. */
  static final int BITS_PER_KEY_AT_1_PERCENT = 11;

  private static final Constructor<BlockedBloom> SIZED = sizedConstructor();

  private final int n;
  private BlockedBloom filter;

  FastFilterBloom(KeyType type, long n, double fpp) {
    if (type != KeyType.LONG) {
      throw new IllegalArgumentException("FASTFILTER (BlockedBloom) takes 64-bit keys: LONG keys only, not " + type);
    }
    if (fpp != BenchmarkDefaults.FPP) {
      throw new IllegalArgumentException("FASTFILTER is calibrated for p = " + BenchmarkDefaults.FPP + " only");
    }
    this.n = Math.toIntExact(n);
    this.filter = empty(this.n);
  }

  /**
   * Always true: BlockedBloom's {@code add} returns nothing, and asking {@code mayContain} first would
   * hash the key twice and charge FastFilter for an answer the other libraries compute for free. The
   * benchmarks never re-add a key, so "true" is also the right answer for every key they add.
   */
  @Override
  public boolean add(Object key) {
    filter.add((Long) key);
    return true;
  }

  @Override
  public boolean mightContain(Object key) {
    return filter.mayContain((Long) key);
  }

  @Override
  public void fill(KeyType type, long from, long to) {
    BlockedBloom f = filter;
    for (long i = from; i < to; i++) {
      f.add(Keys.longKey(i));
    }
  }

  /** BlockedBloom has no clear: swaps in an empty filter of the same size (and a new random seed). */
  @Override
  public void reset() {
    filter = empty(n);
  }

  /** An empty BlockedBloom for n keys at {@link #BITS_PER_KEY_AT_1_PERCENT}, with a new random seed. */
  public static BlockedBloom empty(int n) {
    try {
      return SIZED.newInstance(n, BITS_PER_KEY_AT_1_PERCENT);
    } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot create a BlockedBloom for " + n + " keys", e);
    }
  }

  private static Constructor<BlockedBloom> sizedConstructor() {
    try {
      Constructor<BlockedBloom> c = BlockedBloom.class.getDeclaredConstructor(int.class, int.class);
      c.setAccessible(true);
      return c;
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("FastFilter's BlockedBloom(int, int) constructor is gone", e);
    }
  }
}
