package org.concurrentbloom.internal;

import java.util.Objects;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnel;
import org.concurrentbloom.HashStrategy;

/**
 * <b>Internal, not API</b> (see the package comment). The bit indexes that a standard-layout {@link BloomFilter} of a given shape uses for an item, for
 * code that keeps the bits somewhere else (a Redis string, another process's memory) and must agree
 * with {@code BloomFilter} bit for bit: for a filter built with the same funnel, m and k, the indexes
 * {@link #indexes(Object, long[])} reports are exactly the bits {@code BloomFilter.add} sets and
 * {@code mightContain} tests (hash strategy 1 of docs/HASHING.md). Only the standard layout is offered.
 *
 * <p>Immutable: any thread may call any method at any time. Hashing a String or a Long allocates
 * nothing, as in {@code BloomFilter}.
 *
 * @param <T> the type of item
 */
public final class BitIndexer<T> {
  /** Strategy 1, of the factories without a strategy argument (files and Redis filters made before strategy 4). */
  public static final HashStrategy STRATEGY = HashStrategy.MURMUR3_128_ENHANCED_DOUBLE;
  /** Strategy 4: what {@code BloomFilter.create} uses for a new standard filter. */
  public static final HashStrategy DEFAULT_STRATEGY = HashStrategy.XXH3_64_ENHANCED_DOUBLE;

  private final Funnel<? super T> funnel;
  private final HashStrategy strategy;
  private final long bits;
  private final int hashFunctions;

  private BitIndexer(Funnel<? super T> funnel, HashStrategy strategy, long bits, int hashFunctions) {
    CoreAccess.get().checkShape(bits, hashFunctions);
    this.funnel = Objects.requireNonNull(funnel, "funnel");
    this.strategy = checkStrategy(strategy);
    this.bits = bits;
    this.hashFunctions = hashFunctions;
  }

  private static HashStrategy checkStrategy(HashStrategy strategy) {
    Objects.requireNonNull(strategy, "strategy");
    if (strategy != HashStrategy.MURMUR3_128_ENHANCED_DOUBLE && strategy != HashStrategy.XXH3_64_ENHANCED_DOUBLE) {
      throw new IllegalArgumentException("the standard layout takes hash strategy 4 (" + DEFAULT_STRATEGY
          + ") or 1 (" + STRATEGY + "), not " + strategy.id() + " (" + strategy + ")");
    }
    return strategy;
  }

  /**
   * The strategy-1 indexer for the shape {@code BloomFilter.create(funnel, expectedInsertions, fpp)} builds.
   *
   * @throws IllegalArgumentException if {@code expectedInsertions < 1}, {@code fpp} is not in (0, 1),
   *     -n ln p / (ln 2)^2 is below one bit (as for every layout), or the shape would exceed the limits of
   *     {@code BloomFilter}; the message names the bad value
   */
  public static <T> BitIndexer<T> sized(Funnel<? super T> funnel, long expectedInsertions, double fpp) {
    return sized(funnel, STRATEGY, expectedInsertions, fpp);
  }

  /**
   * The indexer of {@code strategy} (1 or 4) for the shape {@code BloomFilter.create(funnel,
   * expectedInsertions, fpp)} builds (the shape does not depend on the strategy).
   *
   * @throws IllegalArgumentException as {@link #sized(Funnel, long, double)}, or if the strategy is not
   *     1 or 4
   */
  public static <T> BitIndexer<T> sized(Funnel<? super T> funnel, HashStrategy strategy, long expectedInsertions,
      double fpp) {
    long[] shape = CoreAccess.get().standardShape(expectedInsertions, fpp);
    return new BitIndexer<>(funnel, strategy, shape[0], (int) shape[1]);
  }

  /**
   * The strategy-1 indexer for exactly {@code bits} bits and {@code hashFunctions} probes.
   *
   * @throws IllegalArgumentException if either is out of the range {@code BloomFilter} accepts
   */
  public static <T> BitIndexer<T> withShape(Funnel<? super T> funnel, long bits, int hashFunctions) {
    return withShape(funnel, STRATEGY, bits, hashFunctions);
  }

  /**
   * The indexer of {@code strategy} (1 or 4) for exactly {@code bits} bits and {@code hashFunctions} probes.
   *
   * @throws IllegalArgumentException if either is out of the range {@code BloomFilter} accepts, or the
   *     strategy is not 1 or 4
   */
  public static <T> BitIndexer<T> withShape(Funnel<? super T> funnel, HashStrategy strategy, long bits,
      int hashFunctions) {
    return new BitIndexer<>(funnel, strategy, bits, hashFunctions);
  }

  /** The hash strategy, 1 or 4. */
  public HashStrategy strategy() {
    return strategy;
  }

  /** m, the number of bits the indexes range over: every index is in [0, m). */
  public long bitSize() {
    return bits;
  }

  /** k, the number of indexes per item. */
  public int hashFunctions() {
    return hashFunctions;
  }

  /** The funnel items are hashed with. */
  public Funnel<? super T> funnel() {
    return funnel;
  }

  /**
   * Writes the item's hash under this indexer's strategy (docs/HASHING.md) into {@code into[0]} (h1) and
   * {@code into[1]} (h2): MurmurHash3 x64 128's halves for strategy 1, XXH3-64 and its SplitMix64
   * finalizer for strategy 4. The only input of {@link #indexes(long, long, long[])}.
   *
   * @throws NullPointerException if {@code item} is null
   * @throws IndexOutOfBoundsException if {@code into} has fewer than 2 elements
   */
  public void hash(T item, long[] into) {
    Objects.requireNonNull(item, "item");
    Objects.checkIndex(1, into.length);
    CoreAccess.get().hash(item, funnel, strategy, into);
  }

  /**
   * Writes the k bit indexes for the hash (h1, h2) into {@code into[0..k)}, in probe order (an index may
   * repeat when m is small). Allocates nothing.
   *
   * @throws IndexOutOfBoundsException if {@code into} has fewer than k elements
   */
  public void indexes(long h1, long h2, long[] into) {
    Objects.checkIndex(hashFunctions - 1, into.length);
    CoreAccess.get().standardPositions(h1, h2, bits, hashFunctions, into);
  }

  /**
   * Writes the item's k bit indexes into {@code into[0..k)}: {@link #hash} then
   * {@link #indexes(long, long, long[])}. Allocates nothing for Strings and Longs.
   *
   * @throws NullPointerException if {@code item} is null
   * @throws IndexOutOfBoundsException if {@code into} has fewer than max(2, k) elements
   */
  public void indexes(T item, long[] into) {
    hash(item, into);
    indexes(into[0], into[1], into);
  }

  /** (1 - e^(-k n / m))^k: the expected false-positive rate of this shape after n distinct items. */
  public double expectedFpp(double n) {
    return CoreAccess.get().expectedFpp(bits, hashFunctions, n);
  }

  /**
   * The distinct items estimated from the number of set bits, as {@link BloomFilter#approximateElementCount}
   * computes it; {@code Long.MAX_VALUE} when every bit is set.
   */
  public long estimateElements(long setBits) {
    return CoreAccess.get().estimateElements(bits, hashFunctions, setBits);
  }

  @Override
  public String toString() {
    return "BitIndexer[strategy=" + strategy.id() + ", bits=" + bits + ", hashFunctions=" + hashFunctions + ", funnel=" + funnel + "]";
  }
}
