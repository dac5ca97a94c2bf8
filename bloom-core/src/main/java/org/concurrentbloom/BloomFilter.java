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
 *   <li>{@code add} and {@code mightContain} are lock-free: bits are set with atomic read-modify-writes
 *       (compare-and-exchange, once per word for strategy 6) on 64-bit words and never cleared in place, so
 *       no add is ever lost.
 *   <li>{@code clear} and {@code merge} are linearizable with respect to {@code add} and {@code mightContain}:
 *       each takes effect at one instant, an add that overlaps it is ordered wholly before (then cleared, or
 *       kept by the merge) or wholly after (then kept), and an add that starts after it returns is kept.
 *       Each swaps in a new bit array rather than editing the current one, so each allocates m/8 bytes.
 *   <li>{@code copy} and {@code writeTo} contain every add that finished before they started.
 *   <li>Two threads adding the same new item at once may both get true, each having set some of its
 *       bits first, and {@link #count()} counts it twice: under concurrency it bounds the distinct items
 *       added from above (less those whose add found its bits set already: false positives of add).
 * </ul>
 *
 * <h2>Hashing and layouts</h2>
 * New filters hash with XXH3-64, a String as its UTF-16 code units (hash strategies 4, 5 and 6), then
 * place k bits by the layout: anywhere by enhanced double hashing (standard, the default), or in one
 * 512-bit block ({@link Builder#blocked()}): in two of its words (strategy 6) for fpp of 0.001 and above,
 * anywhere in it (strategy 5) below. Files written before strategy 4 hash MurmurHash3 x64 128 of the
 * funnel's bytes (strategies 1 and 2) and keep doing so when read, as do filters built with
 * {@link Builder#hashStrategy}; the Guava-compatible layout ({@link Builder#guavaCompatible()}) hashes
 * as Guava does. docs/HASHING.md and docs/LAYOUTS.md define each. Hashing a String or a Long allocates
 * nothing.
 *
 * @param <T> the type of item
 */
public final class BloomFilter<T> extends BitArrayView<T> {
  static {
    CoreAccess.install(new CoreInternals());
  }

  /** The funnel is {@link Funnels#longFunnel()}: hash the long directly, without a buffer. */
  private final boolean longKeys;
  /** Strategy 4 or 5: h1 is XXH3-64 of the key ({@link Xxh3Keys}), h2 derived from it. */
  private final boolean xxh3;
  /**
   * False for strategy 6, whose layout reads h1 only: h2 is then not computed (it would be, even unused,
   * because the JIT keeps it for deoptimisation, ~1.5 ns of a 10 ns query).
   */
  private final boolean usesH2;
  /** The bits, and the protocol by which clear and merge replace them. */
  private final CurrentTable table;

  private BloomFilter(Funnel<? super T> funnel, Layout layout, long expectedInsertions, double fpp,
      CurrentTable table) {
    super(funnel, layout, expectedInsertions, fpp);
    int words = table.getVolatile().words.length;
    if (words != Sizing.wordsFor(layout.bits)) {
      throw new IllegalArgumentException("bit array of " + words + " words does not fit " + layout.bits + " bits");
    }
    this.longKeys = funnel == Funnels.longFunnel();
    this.xxh3 = layout.strategy().isXxh3();
    this.usesH2 = layout.strategy() != HashStrategy.XXH3_64_WORD_PAIR;
    this.table = table;
  }

  /**
   * Creates an empty filter sized for {@code expectedInsertions} items at false-positive probability
   * {@code fpp}: m = -n ln p / (ln 2)^2 bits rounded up to whole 64-bit words, k = round(-log2 p). Unlike
   * Guava's, n = 0 is refused (not taken as 1) and p has no default (Guava's is 3%): docs/GUAVA.md.
   *
   * @throws IllegalArgumentException if {@code expectedInsertions < 1}, {@code fpp} is not in (0, 1),
   *     -n ln p / (ln 2)^2 is below one bit (the degenerate-size rule of every layout, Guava's too), or the
   *     filter would need more than about 2^37 bits (the largest {@code long[]}); the message names the value
   */
  public static <T> BloomFilter<T> create(Funnel<? super T> funnel, long expectedInsertions, double fpp) {
    return BloomFilter.<T>builder(funnel).expectedInsertions(expectedInsertions).fpp(fpp).build();
  }

  /** Starts a filter description: {@code BloomFilter.builder(funnel).expectedInsertions(n).blocked().build()}. */
  public static <T> Builder<T> builder(Funnel<? super T> funnel) {
    return new Builder<>(funnel);
  }

  /** Describes a filter before it is built. Not thread-safe; the filters it builds are. */
  public static final class Builder<T> extends LayoutBuilder<T, Builder<T>> {
    private Builder(Funnel<? super T> funnel) {
      super(funnel);
    }

    @Override
    Builder<T> self() {
      return this;
    }

    // The overrides below only narrow the return type. Without them these methods' compiled signatures
    // would return the package-private bases, and callers compiled against a Builder that declared them
    // would no longer link.

    @Override
    public Builder<T> expectedInsertions(long expectedInsertions) {
      return super.expectedInsertions(expectedInsertions);
    }

    @Override
    public Builder<T> fpp(double fpp) {
      return super.fpp(fpp);
    }

    @Override
    public Builder<T> blocked() {
      return super.blocked();
    }

    @Override
    public Builder<T> guavaCompatible() {
      return super.guavaCompatible();
    }

    @Override
    public Builder<T> hashStrategy(HashStrategy strategy) {
      return super.hashStrategy(strategy);
    }

    /**
     * Builds an empty filter.
     *
     * @throws IllegalStateException if {@link #expectedInsertions} was not set, or both {@link #blocked()}
     *     and {@link #guavaCompatible()} were chosen
     * @throws IllegalArgumentException if the filter would exceed the largest {@code long[]}, if
     *     -n ln p / (ln 2)^2 is below one bit (every layout), for {@link #guavaCompatible()} if k would
     *     exceed 255, or if the layout does not take the {@link #hashStrategy}; the message names the value
     */
    public BloomFilter<T> build() {
      return empty(funnel, layout(), expectedInsertions, fpp);
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

  /** A filter of exactly {@code bits} bits and {@code k} hash functions, hash strategy 1. */
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

  /** Adds {@code item}; true iff this call turned on a bit (up to concurrent adds: see the class comment). */
  @Override
  public boolean add(T item) {
    // Hashing is written out here and in mightContain, not shared: a shared helper taking an add/query
    // flag was compiled on its own and then not inlined ("already compiled into a big method" under
    // -XX:+PrintInlining with -XX:-TieredCompilation), which leaves the flag unfolded.
    Objects.requireNonNull(item, "item");
    if (xxh3) {
      long h = Xxh3Keys.of(item, funnel);
      return addHashed(h, second(h));
    }
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

  @Override
  public boolean mightContain(T item) {
    Objects.requireNonNull(item, "item");
    if (xxh3) {
      long h = Xxh3Keys.of(item, funnel);
      return mightContainHashed(h, second(h));
    }
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

  /**
   * {@code add(Long.valueOf(key))} without the box or the funnel dispatch: the same bits, the same
   * answer. Allocates nothing.
   *
   * @throws IllegalStateException if this filter's funnel is not {@link Funnels#longFunnel()} (as
   *     {@link #addAll(long[])}); nothing is added then
   */
  public boolean addLong(long key) {
    requireLongKeys();
    if (xxh3) {
      long h = Xxh3Keys.ofLong(key);
      return addHashed(h, second(h));
    }
    return addHashed(Murmur3.longH1(key), Murmur3.longH2(key));
  }

  /**
   * {@code mightContain(Long.valueOf(key))} without the box or the funnel dispatch: the same answer.
   * Allocates nothing.
   *
   * @throws IllegalStateException if this filter's funnel is not {@link Funnels#longFunnel()} (as
   *     {@link #mightContainAll(long[])})
   */
  public boolean mightContainLong(long key) {
    requireLongKeys();
    if (xxh3) {
      long h = Xxh3Keys.ofLong(key);
      return mightContainHashed(h, second(h));
    }
    return mightContainHashed(Murmur3.longH1(key), Murmur3.longH2(key));
  }

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

  /** h2 of an XXH3 strategy from h1, or 0 for strategy 6, which does not read it. */
  long second(long h1) {
    return usesH2 ? Xxh3Keys.second(h1) : 0;
  }

  private void requireLongKeys() {
    if (!longKeys) {
      Funnels.requireLongKeys(funnel); // throws
    }
  }

  /** True for strategies 4 and 5, whose h1 is XXH3-64 of the key. */
  boolean usesXxh3() {
    return xxh3;
  }

  /** Keeps a value computed from warming loads alive (a volatile write the JIT cannot remove). */
  void keepWarmed(long sum) {
    warmSink = sum;
  }

  /** add for an item whose hash halves are (h1, h2); for batches and layers. */
  boolean addHashed(long h1, long h2) {
    return table.add(layout, h1, h2);
  }

  /** addAll of a batch whose h1 are {@code hashes[2i]}, if the layout is strategy 6's; see {@link CurrentTable#addAll}. */
  int addAllWordPair(WordPairLayout pairs, long[] hashes, int n, long[] seen) {
    return table.addAll(pairs, hashes, n, seen);
  }

  /** mightContain for an item whose hash halves are (h1, h2); for batches and layers. */
  boolean mightContainHashed(long h1, long h2) {
    // The common case inline (through CurrentTable it cost ~1 ns of a 10 ns query at n = 1M), the
    // protocol's rest in CurrentTable. The seal is read whatever the bits said, so the answer stays
    // data: the only branch here is on the seal, which is almost always null and so predicted.
    BitTable t = table.getVolatile();
    boolean allSet = layout.test(t.words, h1, h2);
    if (t.nextVolatile() == null) {
      return allSet;
    }
    return allSet && table.mightContain(layout, t, h1, h2);
  }

  /** mightContain asked of {@code t}, a table read earlier, so a batch reads the reference once. */
  boolean mightContainHashed(BitTable t, long h1, long h2) {
    return table.mightContain(layout, t, h1, h2);
  }

  @Override
  BitTable currentTable() {
    return table.getVolatile();
  }

  /** Removes every item, atomically with respect to concurrent operations. Allocates a new bit array. */
  @Override
  public void clear() {
    table.clear();
  }

  /**
   * Adds every item of {@code other} to this filter (bitwise OR), atomically with respect to concurrent
   * operations on this filter. {@code other} may be in use by other threads; its adds that finished
   * before this call began are included. {@link #count()} becomes the sum of both counts, an
   * overestimate when they share items. {@code merge(this)} is a no-op (the count does not double), where
   * Guava's {@code putAll(this)} throws.
   *
   * @throws IllegalArgumentException if the filters are not {@linkplain #isCompatible compatible}; the
   *     message names both shapes, or both funnels when they are what differs
   */
  @SuppressWarnings("ReferenceEquality") // other == this: merging a filter into itself changes nothing
  public void merge(BloomFilter<T> other) {
    Objects.requireNonNull(other, "other");
    if (!layout.sameShape(other.layout)) {
      throw new IllegalArgumentException("cannot merge " + other.layout.shape() + " into " + layout.shape()
          + ": layout, bit count, hash function count and hash strategy must be equal");
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

  /** An independent filter with the same shape and every add that finished before this call. */
  public BloomFilter<T> copy() {
    BitTable t = currentTable();
    long count = t.count();
    long[] words = AtomicWords.copyAcquire(t.words);
    return table.isSwappable() ? loaded(funnel, layout, expectedInsertions, fpp, words, count)
        : loadedLayer(funnel, layout, expectedInsertions, fpp, words, count);
  }

  /**
   * The number of {@link #add} calls that returned true since creation or the last {@link #clear()},
   * plus what {@link #merge} and {@link #readFrom} brought in. See the class comment for concurrent adds.
   */
  @Override
  public long count() {
    return currentTable().count();
  }

  /** The current table's words, to inspect where bits landed. */
  @VisibleForTesting
  long[] currentWords() {
    return currentTable().words;
  }

  /**
   * Writes this filter in the format of docs/FORMAT.md, with every add that finished before this call
   * began. Does not close {@code out}.
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

  /**
   * A {@link Collector} that adds every element of a stream to a new filter of {@link #create create(funnel,
   * expectedInsertions, fpp)}, like Guava's {@code BloomFilter.toBloomFilter}. Concurrent and unordered: a
   * parallel stream adds into one shared filter instead of merging per-thread copies. Arguments are checked
   * when this method is called, not when the stream runs.
   *
   * @throws IllegalArgumentException as {@link #create}
   */
  public static <T> Collector<T, ?, BloomFilter<T>> toBloomFilter(Funnel<? super T> funnel, long expectedInsertions,
      double fpp) {
    Objects.requireNonNull(funnel, "funnel");
    FilterType.STANDARD.sizedLayout(expectedInsertions, fpp); // fails now on bad arguments; allocates nothing
    return Collector.of(() -> BloomFilter.<T>create(funnel, expectedInsertions, fpp), BloomFilter::add, (a, b) -> {
      a.merge(b);
      return a;
    }, Collector.Characteristics.UNORDERED, Collector.Characteristics.CONCURRENT);
  }
}
