package org.concurrentbloom;

import java.util.Objects;

/**
 * What a bit-array filter is described by before it is built: the funnel, n and p of
 * {@link SizedBuilder} and the layout type, resolved to a {@link Layout} without allocating its bits.
 * {@link BloomFilter.Builder} is the public face; its {@code build()} allocates. Not thread-safe, like
 * every builder.
 *
 * @param <T> the type of item
 * @param <B> the concrete builder, returned by the setters so that calls chain
 */
abstract class LayoutBuilder<T, B extends LayoutBuilder<T, B>> extends SizedBuilder<T, B> {
  private FilterType type = FilterType.STANDARD;
  /** Null: the type's default for the fpp ({@link FilterType#strategyFor}). */
  private HashStrategy strategy;
  /** Two different non-default types were chosen: refused when the layout is resolved, not when chosen. */
  private boolean conflicting;

  LayoutBuilder(Funnel<? super T> funnel) {
    super(funnel);
  }

  /**
   * Selects the cache-blocked layout: each item's bits lie in one 512-bit block, so a query costs one
   * memory access instead of k. For fpp of 0.001 and above they lie in two 64-bit words of it (hash
   * strategy 6), so a query is two loads and an add at most two atomic writes; below, anywhere in it
   * (strategy 5). It needs a few percent more bits for the same fpp (7% at 1%; it is sized from its own
   * FPR model, not the standard formula); see docs/LAYOUTS.md.
   */
  public B blocked() {
    return type(FilterType.BLOCKED);
  }

  /**
   * Selects Guava's layout and sizing, so that {@link GuavaInterop#writeTo} can write the filter for
   * Guava's {@code BloomFilter.readFrom}: for the same n, p and adds, the bytes are those Guava 33.4.0
   * and later writes (m = floor(-n ln p / (ln 2)^2) in whole words, k = round(-log2 p)). Where Guava's
   * {@code create} refuses (below one bit, or k above 255, which its format cannot store), {@code build()}
   * refuses too. Slower than the default layout (a division per probe); use it only where Guava must read
   * the filter. Cannot be combined with {@link #blocked()}.
   */
  public B guavaCompatible() {
    return type(FilterType.GUAVA);
  }

  /**
   * Selects the hash strategy instead of the layout's default (4 for the standard layout; 6 for the
   * blocked one, or 5 when fpp is below 0.001). The one use is a filter whose bits must match those of a MurmurHash3 filter: the files
   * and Redis filters of strategies 1 and 2 (docs/HASHING.md), to {@link BloomFilter#merge merge} with
   * one or to upload it to Redis. {@code build()} refuses a strategy the layout does not take.
   */
  public B hashStrategy(HashStrategy strategy) {
    this.strategy = Objects.requireNonNull(strategy, "strategy");
    return self();
  }

  private B type(FilterType chosen) {
    conflicting |= type != FilterType.STANDARD && type != chosen;
    type = chosen;
    return self();
  }

  /**
   * The number of bits (m) {@code build()} would allocate, computed without allocating them, so a
   * caller can check the memory first (m / 8 bytes, rounded up to whole 64-bit words).
   *
   * @throws IllegalStateException as {@code build()}
   * @throws IllegalArgumentException as {@code build()}
   */
  public long bitSize() {
    return layout().bits;
  }

  /**
   * The layout {@code build()} allocates.
   *
   * @throws IllegalStateException if n was not set, or two layouts were chosen
   * @throws IllegalArgumentException if the layout type refuses n and p, or the hash strategy
   */
  final Layout layout() {
    long n = requireExpectedInsertions();
    if (conflicting) {
      throw new IllegalStateException("blocked() and guavaCompatible() cannot be combined");
    }
    return type.sizedLayout(n, fpp, strategy == null ? type.strategyFor(fpp) : strategy);
  }
}
