package org.concurrentbloom;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collector;
import org.concurrentbloom.internal.CoreAccess;
import org.concurrentbloom.internal.VisibleForTesting;

/**
 * A Bloom filter that many threads may use at once without locks.
 *
 * <p>{@link #mightContain} never returns false for an item whose {@link #add} finished before the query
 * began; it returns true for an item never added with probability about {@link #estimatedFpp()}.
 *
 * <h2>Thread safety</h2>
 * Every method may be called from any thread at any time.
 * <ul>
 *   <li>{@code add} and {@code mightContain} are lock-free: bits are set with compare-and-exchange on
 *       64-bit words and never cleared in place, so no add is ever lost.
 *   <li>{@code clear} and {@code merge} are linearizable with respect to {@code add} and
 *       {@code mightContain}: each takes effect at one instant, an add that overlaps them is ordered
 *       wholly before (and then cleared, or kept by the merge) or wholly after (and then kept), and an
 *       add that starts after they return is always kept. They swap in a new bit array rather than
 *       editing the current one, so each allocates m/8 bytes.
 *   <li>{@code copy} and {@code writeTo} contain every add that finished before they started.
 *   <li>When two threads add the same new item at the same time, both calls may return true, each
 *       having set some of its bits first. {@link #count()} counts such an item twice, so under
 *       concurrency it is an upper bound on the distinct items added (less those whose add returned
 *       false because their bits were already set, which is how false positives show up in adds).
 * </ul>
 *
 * <h2>Hashing and layouts</h2>
 * MurmurHash3 x64 128 of the funnel's bytes, then k probes placed by the layout: anywhere by enhanced
 * double hashing (standard, the default), inside one 512-bit block ({@link Builder#blocked()}), or as
 * Guava places them ({@link Builder#guavaCompatible()}). docs/HASHING.md and docs/LAYOUTS.md give the
 * exact derivations. Hashing a String or a Long allocates nothing.
 *
 * @param <T> the type of item
 */
public final class BloomFilter<T> implements MembershipFilter<T> {
  static {
    CoreAccess.install(new CoreInternals());
  }

  private final Funnel<? super T> funnel;
  /** The funnel is {@link Funnels#longFunnel()}: hash the long directly, without a buffer. */
  private final boolean longKeys;
  private final Layout layout;
  private final long expectedInsertions;
  private final double fpp;
  /** The bits, and the protocol by which clear and merge replace them. */
  private final CurrentTable table;

  private BloomFilter(Funnel<? super T> funnel, Layout layout, long expectedInsertions, double fpp,
      CurrentTable table) {
    int words = table.getVolatile().words.length;
    if (words != Sizing.wordsFor(layout.bits)) {
      throw new IllegalArgumentException("bit array of " + words + " words does not fit " + layout.bits + " bits");
    }
    this.funnel = Objects.requireNonNull(funnel, "funnel");
    this.longKeys = funnel == Funnels.longFunnel();
    this.layout = layout;
    this.expectedInsertions = expectedInsertions;
    this.fpp = fpp;
    this.table = table;
  }

  /**
   * Creates an empty filter sized for {@code expectedInsertions} items at false-positive probability
   * {@code fpp}: m = -n ln p / (ln 2)^2 bits rounded up to whole 64-bit words, k = round(-log2 p).
   *
   * <p>Unlike Guava's {@code create}, n = 0 is refused rather than taken as 1, and there is no overload
   * without p (Guava defaults to 3%): docs/GUAVA.md lists every such difference.
   *
   * @throws IllegalArgumentException if {@code expectedInsertions < 1}, {@code fpp} is not in (0, 1),
   *     -n ln p / (ln 2)^2 is below one bit (the rule for degenerate sizes every layout applies; Guava
   *     refuses the same pairs), or the filter would need more than about 2^37 bits (the largest
   *     {@code long[]}); the message names the bad value
   */
  public static <T> BloomFilter<T> create(Funnel<? super T> funnel, long expectedInsertions, double fpp) {
    return BloomFilter.<T>builder(funnel).expectedInsertions(expectedInsertions).fpp(fpp).build();
  }

  /**
   * Starts a filter description: {@code BloomFilter.builder(funnel).expectedInsertions(n).fpp(p)
   * .blocked().build()}.
   */
  public static <T> Builder<T> builder(Funnel<? super T> funnel) {
    return new Builder<>(funnel);
  }

  /** Describes a filter before it is built. Not thread-safe; the filters it builds are. */
  public static final class Builder<T> extends SizedBuilder<T, Builder<T>> {
    private FilterType type = FilterType.STANDARD;
    private boolean conflicting;

    private Builder(Funnel<? super T> funnel) {
      super(funnel);
    }

    @Override
    Builder<T> self() {
      return this;
    }

    /**
     * Selects the cache-blocked layout: each item's bits lie in one 512-bit block, so a query costs one
     * memory access instead of k. It needs a few percent more bits for the same fpp (it is sized from
     * its own FPR model, not the standard formula); see docs/LAYOUTS.md.
     */
    public Builder<T> blocked() {
      return type(FilterType.BLOCKED);
    }

    /**
     * Selects Guava's layout and sizing, so that {@link GuavaInterop#writeTo} can write the filter for
     * Guava's {@code BloomFilter.readFrom}: for the same n, p and adds, the bytes are those Guava 33.4.0
     * and later writes (m = floor(-n ln p / (ln 2)^2) in whole words, k = round(-log2 p)). Where Guava's
     * {@code create} refuses (below one bit, or k above 255, which its format cannot store), {@link #build()}
     * refuses too. Slower than the default layout (a division per probe); use it only where Guava must read
     * the filter. Cannot be combined with {@link #blocked()}.
     */
    public Builder<T> guavaCompatible() {
      return type(FilterType.GUAVA);
    }

    private Builder<T> type(FilterType chosen) {
      conflicting |= type != FilterType.STANDARD && type != chosen;
      type = chosen;
      return this;
    }

    /**
     * The number of bits (m) {@link #build()} would allocate, computed without allocating them, so a
     * caller can check the memory first (m / 8 bytes, rounded up to whole 64-bit words).
     *
     * @throws IllegalStateException as {@link #build()}
     * @throws IllegalArgumentException as {@link #build()}
     */
    public long bitSize() {
      return layout().bits;
    }

    /**
     * Builds an empty filter.
     *
     * @throws IllegalStateException if {@link #expectedInsertions} was not set
     * @throws IllegalArgumentException if the filter would exceed the largest {@code long[]}, if
     *     -n ln p / (ln 2)^2 is below one bit (every layout), or, for {@link #guavaCompatible()}, if k would
     *     exceed 255; the message names the value
     */
    public BloomFilter<T> build() {
      return empty(funnel, layout(), expectedInsertions, fpp);
    }

    private Layout layout() {
      long n = requireExpectedInsertions();
      if (conflicting) {
        throw new IllegalStateException("blocked() and guavaCompatible() cannot be combined");
      }
      return type.sizedLayout(n, fpp);
    }
  }

  /** An empty filter of this layout, recording n and p as what it was sized for. */
  static <T> BloomFilter<T> empty(Funnel<? super T> funnel, Layout layout, long n, double fpp) {
    return loaded(funnel, layout, n, fpp, new long[Sizing.wordsFor(layout.bits)], 0);
  }

  /** An empty filter whose table is never cleared or merged: a layer of a scalable filter. */
  static <T> BloomFilter<T> emptyLayer(Funnel<? super T> funnel, Layout layout, long n, double fpp) {
    return loadedLayer(funnel, layout, n, fpp, new long[Sizing.wordsFor(layout.bits)], 0);
  }

  /** A filter over existing words (read from a stream, or copied): the caller hands over {@code words}. */
  static <T> BloomFilter<T> loaded(Funnel<? super T> funnel, Layout layout, long n, double fpp, long[] words,
      long count) {
    return new BloomFilter<>(funnel, layout, n, fpp, CurrentTable.swappable(new BitTable(words, count)));
  }

  /** As {@link #loaded}, for a layer of a scalable filter, which is never cleared or merged on its own. */
  static <T> BloomFilter<T> loadedLayer(Funnel<? super T> funnel, Layout layout, long n, double fpp,
      long[] words, long count) {
    return new BloomFilter<>(funnel, layout, n, fpp, CurrentTable.fixed(new BitTable(words, count)));
  }

  /** A filter of exactly {@code bits} bits and {@code k} hash functions. */
  @VisibleForTesting
  static <T> BloomFilter<T> withShape(Funnel<? super T> funnel, long bits, int k) {
    return withLayout(funnel, new StandardLayout(bits, k));
  }

  /** A filter with exactly this layout; n and p are derived from the shape. */
  @VisibleForTesting
  static <T> BloomFilter<T> withLayout(Funnel<? super T> funnel, Layout layout) {
    long n = Math.max(1, Math.round(layout.bits * Math.log(2) / layout.hashFunctions));
    double fpp = Math.min(0.5, Math.max(Double.MIN_VALUE, layout.expectedFpp(n)));
    return empty(funnel, layout, n, fpp);
  }

  // ---------------------------------------------------------------- add and query

  /**
   * Adds {@code item}. Returns true iff this call turned on at least one bit, that is, iff the item was
   * definitely not in the filter before (up to concurrent adds of the same item: see the class comment).
   */
  @Override
  public boolean add(T item) {
    Objects.requireNonNull(item, "item");
    if (longKeys) {
      long v = (Long) item;
      return addHashed(Murmur3.longH1(v), Murmur3.longH2(v));
    }
    HashingSink sink = HashingSink.acquire();
    try {
      sink.hash(item, funnel);
      return addHashed(sink.h1, sink.h2);
    } finally {
      sink.release();
    }
  }

  /** Returns false if {@code item} was definitely never added; true if it might have been. */
  @Override
  public boolean mightContain(T item) {
    Objects.requireNonNull(item, "item");
    if (longKeys) {
      long v = (Long) item;
      return mightContainHashed(Murmur3.longH1(v), Murmur3.longH2(v));
    }
    HashingSink sink = HashingSink.acquire();
    try {
      sink.hash(item, funnel);
      return mightContainHashed(sink.h1, sink.h2);
    } finally {
      sink.release();
    }
  }

  // ---------------------------------------------------------------- batches

  @SuppressWarnings("unused") // written by Batches so the JIT cannot drop the warming loads
  private volatile long warmSink;

  /**
   * Adds every item, in order; returns how many of those adds returned true. Faster per item than
   * {@link #add} in a loop for filters larger than the CPU caches.
   */
  public int addAll(Iterable<? extends T> items) {
    Objects.requireNonNull(items, "items");
    return Batches.addAll(this, items);
  }

  /**
   * Adds every key, as {@code add(Long)} would; returns how many of those adds returned true.
   *
   * @throws NullPointerException if {@code keys} is null (whatever the funnel)
   * @throws IllegalStateException if this filter's funnel is not {@link Funnels#longFunnel()}
   */
  public int addAll(long[] keys) {
    Objects.requireNonNull(keys, "keys");
    requireLongKeys();
    return Batches.addAll(this, keys);
  }

  /**
   * Answers {@link #mightContain} for every item: element i of the result is the answer for item i.
   * Faster per item than a loop of single queries for filters larger than the CPU caches.
   */
  public boolean[] mightContainAll(List<? extends T> items) {
    Objects.requireNonNull(items, "items");
    return Batches.mightContainAll(this, items);
  }

  /**
   * Answers {@code mightContain(Long)} for every key: element i of the result is the answer for key i.
   *
   * @throws NullPointerException if {@code keys} is null (whatever the funnel)
   * @throws IllegalStateException if this filter's funnel is not {@link Funnels#longFunnel()}
   */
  public boolean[] mightContainAll(long[] keys) {
    Objects.requireNonNull(keys, "keys");
    requireLongKeys();
    return Batches.mightContainAll(this, keys);
  }

  private void requireLongKeys() {
    if (!longKeys) {
      throw new IllegalStateException("long[] batches need a filter built with Funnels.longFunnel(), not " + funnel);
    }
  }

  /** Keeps a value computed from warming loads alive (a volatile write the JIT cannot remove). */
  void keepWarmed(long sum) {
    warmSink = sum;
  }

  /** add for an item whose hash halves are (h1, h2); package-private for batches and layers. */
  boolean addHashed(long h1, long h2) {
    return table.add(layout, h1, h2);
  }

  /** mightContain for an item whose hash halves are (h1, h2); for batches and layers. */
  boolean mightContainHashed(long h1, long h2) {
    return table.mightContain(layout, table.getVolatile(), h1, h2);
  }

  /** mightContain asked of {@code t}, a table read earlier, so a batch reads the reference once. */
  boolean mightContainHashed(BitTable t, long h1, long h2) {
    return table.mightContain(layout, t, h1, h2);
  }

  /** The current table (volatile read). */
  BitTable currentTable() {
    return table.getVolatile();
  }

  // ---------------------------------------------------------------- clear, merge, copy

  /** Removes every item, atomically with respect to concurrent operations. Allocates a new bit array. */
  @Override
  public void clear() {
    table.clear();
  }

  /**
   * Adds every item of {@code other} to this filter (bitwise OR), atomically with respect to concurrent
   * operations on this filter. {@code other} may be in use by other threads; its adds that finished
   * before this call began are included. {@link #count()} becomes the sum of both counts, an
   * overestimate when they share items.
   *
   * <p>{@code merge(this)} is a no-op (the union of a filter with itself is that filter; the count does
   * not double), where Guava's {@code putAll(this)} throws: see docs/GUAVA.md.
   *
   * @throws IllegalArgumentException if the filters are not {@linkplain #isCompatible compatible}; the
   *     message names both shapes, or both funnels when they are what differs
   */
  @SuppressWarnings("ReferenceEquality") // other == this: merging a filter into itself changes nothing
  public void merge(BloomFilter<T> other) {
    Objects.requireNonNull(other, "other");
    if (!layout.sameShape(other.layout)) {
      throw new IllegalArgumentException("cannot merge " + other.layout.shape() + " into " + layout.shape()
          + ": layout, bit count and hash function count must be equal");
    }
    String funnels = Funnels.incompatibility(funnel, other.funnel);
    if (funnels != null) {
      throw new IllegalArgumentException("cannot merge a filter of " + other.funnel + " into one of " + funnel
          + ": " + funnels);
    }
    if (other == this) {
      return;
    }
    BitTable source = other.currentTable();
    table.union(source.words, source.count());
  }

  /**
   * True iff {@link #merge} would accept {@code other}: the same layout, bit count, hash function count
   * and hash strategy, and funnels not known to write different bytes for one item. Funnels are judged by
   * {@link KeyType#of}: two of the same built-in (or {@linkplain Funnels#withKeyType declared}) key type
   * match; two {@link KeyType#CUSTOM custom} funnels match only if {@code equals} (Guava's rule for every
   * funnel); a custom funnel never matches a typed one (declare it with {@link Funnels#withKeyType}).
   */
  public boolean isCompatible(BloomFilter<T> other) {
    Objects.requireNonNull(other, "other");
    return layout.sameShape(other.layout) && Funnels.incompatibility(funnel, other.funnel) == null;
  }

  /** An independent filter with the same shape and every add that finished before this call. */
  public BloomFilter<T> copy() {
    BitTable t = currentTable();
    long count = t.count();
    long[] words = AtomicWords.copyAcquire(t.words);
    return table.isSwappable() ? loaded(funnel, layout, expectedInsertions, fpp, words, count)
        : loadedLayer(funnel, layout, expectedInsertions, fpp, words, count);
  }

  // ---------------------------------------------------------------- statistics

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
   * The n this filter was sized for. <b>Derived</b>, not given, for a filter read by
   * {@link GuavaInterop#readFrom} (whose bytes hold no n): there it is round(m ln 2 / k), the n the shape is
   * optimal for, e.g. 94,914 for a Guava filter created for 100,000 at 1%.
   */
  @Override
  public long expectedInsertions() {
    return expectedInsertions;
  }

  /**
   * The false-positive probability this filter was sized for at {@link #expectedInsertions()} items.
   * <b>Derived</b> for a filter read by {@link GuavaInterop#readFrom}: the model FPR of its shape at the
   * derived n (0.0078 for a Guava filter created at 1%). For the current rate use {@link #estimatedFpp()}.
   */
  @Override
  public double fpp() {
    return fpp;
  }

  /**
   * The number of {@link #add} calls that returned true since creation or the last {@link #clear()},
   * plus what {@link #merge} and {@link #readFrom} brought in. See the class comment for concurrent adds.
   */
  @Override
  public long count() {
    return currentTable().count();
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

  Funnel<? super T> funnel() {
    return funnel;
  }

  /** The words of the current table, to inspect where bits landed. */
  @VisibleForTesting
  long[] currentWords() {
    return currentTable().words;
  }

  /** The number of bits set, read with acquire semantics: O(m/64). */
  long setBits() {
    return AtomicWords.bitCountAcquire(currentTable().words);
  }

  // ---------------------------------------------------------------- persistence

  /**
   * Writes this filter in the format of docs/FORMAT.md. The bytes hold every add that finished before
   * this call began. Does not close {@code out}.
   */
  @Override
  public void writeTo(OutputStream out) throws IOException {
    Objects.requireNonNull(out, "out");
    FilterFormat.write(out, layout, KeyType.of(funnel), expectedInsertions, fpp, currentTable());
  }

  /**
   * Reads a filter written by {@link #writeTo}, with the funnel it was built with (the file records only
   * its {@link KeyType}). Reads exactly the filter's bytes and does not close {@code in}.
   *
   * @throws IOException if the stream ends early, the bytes are not a valid filter (docs/FORMAT.md lists
   *     every check), or the file records another key type than the funnel's ({@link Funnels#withKeyType});
   *     nothing larger than the bytes actually present is allocated
   */
  public static <T> BloomFilter<T> readFrom(InputStream in, Funnel<? super T> funnel) throws IOException {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(funnel, "funnel");
    FilterFormat.Loaded loaded = FilterFormat.read(in);
    FilterFormat.Header h = loaded.header();
    FilterFormat.checkKeyType(h.keyType(), funnel);
    return loaded(funnel, loaded.layout(), h.expectedInsertions(), h.fpp(), loaded.words(), h.count());
  }

  // ---------------------------------------------------------------- object methods

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
   * Value equality, as Guava's: the same layout, m, k and strategy, an {@code equal} funnel, and the same
   * bits set (n, p and {@link #count()} do not take part). Under concurrent writes it compares states
   * each filter passed through during the call, not necessarily at one common instant. O(m/64).
   */
  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof BloomFilter<?> other)) {
      return false;
    }
    if (!layout.sameShape(other.layout) || !funnel.equals(other.funnel)) {
      return false;
    }
    return AtomicWords.equalAcquire(currentTable().words, other.currentTable().words);
  }

  /** Consistent with {@link #equals}, so it changes as items are added. O(m/64). */
  @Override
  public int hashCode() {
    int h = 31 * (31 * (31 * Long.hashCode(layout.bits) + layout.hashFunctions) + layout.strategy().id())
        + funnel.hashCode();
    return AtomicWords.hashAcquire(h, currentTable().words);
  }

  // ---------------------------------------------------------------- streams

  /**
   * A {@link Collector} that adds every element of a stream to a new filter of
   * {@link #create create(funnel, expectedInsertions, fpp)}, like Guava's
   * {@code BloomFilter.toBloomFilter}. It is concurrent and unordered: a parallel stream adds into one
   * shared filter (the filter is thread-safe) instead of merging per-thread copies. Arguments are checked
   * when this method is called, not when the stream runs.
   *
   * @throws IllegalArgumentException as {@link #create}
   */
  public static <T> Collector<T, ?, BloomFilter<T>> toBloomFilter(Funnel<? super T> funnel, long expectedInsertions,
      double fpp) {
    Objects.requireNonNull(funnel, "funnel");
    FilterType.STANDARD.sizedLayout(expectedInsertions, fpp); // fails now on bad arguments; allocates nothing
    return Collector.of(() -> BloomFilter.<T>create(funnel, expectedInsertions, fpp), BloomFilter::add,
        BloomFilter::mergedInto, Collector.Characteristics.UNORDERED, Collector.Characteristics.CONCURRENT);
  }

  private static <T> BloomFilter<T> mergedInto(BloomFilter<T> a, BloomFilter<T> b) {
    a.merge(b);
    return a;
  }

  @Override
  public String toString() {
    return "BloomFilter[layout=" + layout.name() + ", bits=" + layout.bits + ", hashFunctions="
        + layout.hashFunctions + ", expectedInsertions="
        + expectedInsertions + ", fpp=" + fpp + ", count=" + count() + ", funnel=" + funnel + "]";
  }
}
