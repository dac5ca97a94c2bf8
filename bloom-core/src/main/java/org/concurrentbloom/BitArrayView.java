package org.concurrentbloom;

import java.util.Objects;

/**
 * What a {@link BloomFilter} answers without changing: its funnel, the layout of its one bit array and
 * the n and p it was sized for, the statistics read off them and the bits set, compatibility and value
 * equality. These are public methods of {@code BloomFilter}, inherited from here; {@code BloomFilter}
 * owns the bits and every operation that changes them.
 *
 * <p>Immutable but for the bits; any thread may call any method.
 *
 * @param <T> the type of item
 */
abstract class BitArrayView<T> implements MembershipFilter<T> {
  final Funnel<? super T> funnel;
  final Layout layout;
  final long expectedInsertions;
  final double fpp;

  BitArrayView(Funnel<? super T> funnel, Layout layout, long expectedInsertions, double fpp) {
    this.funnel = Objects.requireNonNull(funnel, "funnel");
    this.layout = layout;
    this.expectedInsertions = expectedInsertions;
    this.fpp = fpp;
  }

  /** m, the number of bits. */
  @Override
  public long bitSize() {
    return layout.bits;
  }

  /** k, the number of bits set or tested per item. */
  public int hashFunctions() {
    return layout.hashFunctions;
  }

  /**
   * The n this filter was sized for; <b>derived</b> for a filter read by {@link GuavaInterop#readFrom} (whose
   * bytes hold no n): round(m ln 2 / k), e.g. 94,914 for a Guava filter created for 100,000 at 1%.
   */
  @Override
  public long expectedInsertions() {
    return expectedInsertions;
  }

  /**
   * The false-positive probability sized for at {@link #expectedInsertions()} items; <b>derived</b> for a
   * filter read by {@link GuavaInterop#readFrom}: its model FPR at that n (0.0078 for a Guava filter created
   * at 1%). For the current rate use {@link #estimatedFpp()}.
   */
  @Override
  public double fpp() {
    return fpp;
  }

  /** The fraction of bits set, in [0, 1]. Scans the whole array: O(m/64). */
  @Override
  public double fillRatio() {
    return (double) setBits() / layout.bits;
  }

  /**
   * The layout's FPR model at the n the set bits imply, n = -(m/k) ln(1 - X/m): exactly (X/m)^k for the
   * standard and Guava layouts, the Poisson block model for the blocked one; 1.0 when every bit is set.
   * An estimate. Scans the array: O(m/64).
   */
  @Override
  public double estimatedFpp() {
    return Sizing.fppFromSetCells(layout.bits, layout.hashFunctions, setBits(), layout::expectedFpp);
  }

  /**
   * An estimate from the number X of set bits (Swamidass and Baldi 2007): -(m/k) ln(1 - X/m), meaningful
   * after merges and loads; {@code Long.MAX_VALUE} when every bit is set. Scans the array: O(m/64).
   */
  @Override
  public long approximateElementCount() {
    return Sizing.estimateElements(layout.bits, layout.hashFunctions, setBits());
  }

  Layout layout() {
    return layout;
  }

  /** The current table (volatile read). */
  abstract BitTable currentTable();

  Funnel<? super T> funnel() {
    return funnel;
  }

  /** The number of bits set, read with acquire semantics: O(m/64). */
  long setBits() {
    return AtomicWords.bitCountAcquire(currentTable().words);
  }

  /** The filter type: {@link FilterType#STANDARD}, {@link FilterType#BLOCKED} or {@link FilterType#GUAVA}. */
  public FilterType filterType() {
    return layout.type();
  }

  /**
   * How items become bits: the type's own strategy, or {@link HashStrategy#GUAVA_MURMUR128_MITZ_32} for a
   * filter read from Guava bytes of that older strategy (which {@link #writeTo} cannot write).
   */
  public HashStrategy hashStrategy() {
    return layout.strategy();
  }

  /**
   * True iff {@link BloomFilter#merge} would accept {@code other}: the same layout, bit count, hash function count
   * and hash strategy, and funnels not known to write different bytes for one item. Funnels are judged by
   * {@link KeyType#of}: two of the same built-in (or {@linkplain Funnels#withKeyType declared}) key type
   * match; two {@link KeyType#CUSTOM custom} funnels match only if {@code equals} (Guava's rule for every
   * funnel); a custom funnel never matches a typed one (declare it with {@link Funnels#withKeyType}).
   */
  public boolean isCompatible(BloomFilter<T> other) {
    Objects.requireNonNull(other, "other");
    return layout.sameShape(other.layout) && Funnels.incompatibility(funnel, other.funnel) == null;
  }

  /**
   * Value equality, as Guava's: the same layout, m, k and strategy, an {@code equal} funnel, and the same
   * bits set (n, p and {@link #count()} do not take part). Under concurrent writes it compares states
   * each filter passed through during the call, not necessarily at one common instant. O(m/64).
   */
  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    return o instanceof BloomFilter<?> other && layout.sameShape(other.layout) && funnel.equals(other.funnel)
        && AtomicWords.equalAcquire(currentTable().words, other.currentTable().words);
  }

  /** Consistent with {@link #equals}, so it changes as items are added. O(m/64). */
  @Override
  public int hashCode() {
    int h = 31 * (31 * (31 * Long.hashCode(layout.bits) + layout.hashFunctions) + layout.strategy().id())
        + funnel.hashCode();
    return AtomicWords.hashAcquire(h, currentTable().words);
  }

  @Override
  public String toString() {
    return "BloomFilter[layout=" + layout.name() + ", bits=" + layout.bits + ", hashFunctions=" + layout.hashFunctions
        + ", hashStrategy=" + layout.strategy().id() + ", expectedInsertions=" + expectedInsertions + ", fpp=" + fpp + ", count=" + count() + ", funnel=" + funnel
        + "]";
  }
}
