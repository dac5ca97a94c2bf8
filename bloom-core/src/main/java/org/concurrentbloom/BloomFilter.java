package org.concurrentbloom;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collector;

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
  private static final VarHandle TABLE;

  static {
    try {
      TABLE = MethodHandles.lookup().findVarHandle(BloomFilter.class, "table", BitTable.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Funnel<? super T> funnel;
  /** The funnel is {@link Funnels#longFunnel()}: hash the long directly, without a buffer. */
  private final boolean longKeys;
  private final Layout layout;
  private final long expectedInsertions;
  private final double fpp;
  @SuppressWarnings("unused") // accessed through TABLE
  private volatile BitTable table;

  BloomFilter(Funnel<? super T> funnel, Layout layout, long expectedInsertions, double fpp, BitTable table) {
    if (table.words.length != Sizing.wordsFor(layout.bits)) {
      throw new IllegalArgumentException(
          "bit array of " + table.words.length + " words does not fit " + layout.bits + " bits");
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
  public static final class Builder<T> {
    private final Funnel<? super T> funnel;
    private long expectedInsertions = -1;
    private double fpp = 0.01;
    private boolean blocked;
    private boolean guavaCompatible;

    private Builder(Funnel<? super T> funnel) {
      this.funnel = Objects.requireNonNull(funnel, "funnel");
    }

    /** n, the number of distinct items the filter must hold at its target fpp. Required; at least 1. */
    public Builder<T> expectedInsertions(long expectedInsertions) {
      Sizing.checkExpectedInsertions(expectedInsertions);
      this.expectedInsertions = expectedInsertions;
      return this;
    }

    /** p, the false-positive probability at n items, in (0, 1). Defaults to 0.01. */
    public Builder<T> fpp(double fpp) {
      Sizing.checkFpp(fpp);
      this.fpp = fpp;
      return this;
    }

    /**
     * Selects the cache-blocked layout: each item's bits lie in one 512-bit block, so a query costs one
     * memory access instead of k. It needs a few percent more bits for the same fpp (it is sized from
     * its own FPR model, not the standard formula); see docs/LAYOUTS.md.
     */
    public Builder<T> blocked() {
      this.blocked = true;
      return this;
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
      this.guavaCompatible = true;
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
      if (expectedInsertions < 0) {
        throw new IllegalStateException("expectedInsertions(n) must be set before build()");
      }
      if (blocked && guavaCompatible) {
        throw new IllegalStateException("blocked() and guavaCompatible() cannot be combined");
      }
      Layout layout;
      if (guavaCompatible) {
        long[] shape = Sizing.guavaShape(expectedInsertions, fpp);
        layout = new GuavaLayout(shape[0], (int) shape[1]);
      } else {
        layout = sizedLayout(expectedInsertions, fpp, blocked);
      }
      return layout;
    }
  }

  /**
   * The standard or blocked layout sized for n items at rate p, allocating nothing.
   *
   * @throws IllegalArgumentException if n or p is out of range or the shape would pass the size limit
   */
  static Layout sizedLayout(long n, double p, boolean blocked) {
    if (blocked) {
      long[] shape = Sizing.blockedShape(n, p);
      return new BlockedLayout(shape[0], (int) shape[1]);
    }
    return new StandardLayout(Sizing.optimalBits(n, p), Sizing.optimalHashFunctions(n, p));
  }

  /** An empty filter of this layout, recording n and p as what it was sized for. */
  static <T> BloomFilter<T> empty(Funnel<? super T> funnel, Layout layout, long n, double fpp) {
    return new BloomFilter<>(funnel, layout, n, fpp, BitTable.empty(Sizing.wordsFor(layout.bits)));
  }

  /** A filter of exactly {@code bits} bits and {@code k} hash functions, for tests that need a shape. */
  static <T> BloomFilter<T> withShape(Funnel<? super T> funnel, long bits, int k) {
    return withLayout(funnel, new StandardLayout(bits, k));
  }

  /** A filter with exactly this layout, for tests; n and p are derived from the shape. */
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
      return mightContainHashed(tableVolatile(), Murmur3.longH1(v), Murmur3.longH2(v));
    }
    HashingSink sink = HashingSink.acquire();
    try {
      sink.hash(item, funnel);
      return mightContainHashed(tableVolatile(), sink.h1, sink.h2);
    } finally {
      sink.release();
    }
  }

  // ---------------------------------------------------------------- batches

  /*
   * Batches hash a chunk of items first, then read one word of every item's block (or of every probe,
   * for the standard layouts) in a loop whose loads do not depend on each other, so the CPU keeps many
   * cache misses in flight at once; the real adds and queries that follow find their lines cached. A
   * single add or query cannot do this: its next load waits on the branch that tests the last one.
   */
  private static final int BATCH = 32;
  @SuppressWarnings("unused") // written so the JIT cannot drop the warming loads
  private volatile long warmSink;

  /**
   * Adds every item, in order; returns how many of those adds returned true. Faster per item than
   * {@link #add} in a loop for filters larger than the CPU caches.
   */
  public int addAll(Iterable<? extends T> items) {
    Objects.requireNonNull(items, "items");
    long[] hashes = new long[2 * BATCH];
    int changed = 0;
    int n = 0;
    HashingSink sink = HashingSink.acquire();
    try {
      for (T item : items) {
        hashInto(item, sink, hashes, n++);
        if (n == BATCH) {
          changed += addHashedBatch(hashes, n);
          n = 0;
        }
      }
    } finally {
      sink.release();
    }
    return changed + addHashedBatch(hashes, n);
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
    long[] hashes = new long[2 * BATCH];
    int changed = 0;
    for (int start = 0; start < keys.length; start += BATCH) {
      int n = Math.min(BATCH, keys.length - start);
      for (int i = 0; i < n; i++) {
        hashLong(keys[start + i], hashes, i);
      }
      changed += addHashedBatch(hashes, n);
    }
    return changed;
  }

  /**
   * Answers {@link #mightContain} for every item: element i of the result is the answer for item i.
   * Faster per item than a loop of single queries for filters larger than the CPU caches.
   */
  public boolean[] mightContainAll(List<? extends T> items) {
    Objects.requireNonNull(items, "items");
    boolean[] results = new boolean[items.size()];
    long[] hashes = new long[2 * BATCH];
    HashingSink sink = HashingSink.acquire();
    try {
      int n = 0;
      int start = 0;
      for (T item : items) {
        hashInto(item, sink, hashes, n++);
        if (n == BATCH) {
          mightContainHashedBatch(hashes, n, results, start);
          start += n;
          n = 0;
        }
      }
      mightContainHashedBatch(hashes, n, results, start);
    } finally {
      sink.release();
    }
    return results;
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
    boolean[] results = new boolean[keys.length];
    long[] hashes = new long[2 * BATCH];
    for (int start = 0; start < keys.length; start += BATCH) {
      int n = Math.min(BATCH, keys.length - start);
      for (int i = 0; i < n; i++) {
        hashLong(keys[start + i], hashes, i);
      }
      mightContainHashedBatch(hashes, n, results, start);
    }
    return results;
  }

  private void requireLongKeys() {
    if (!longKeys) {
      throw new IllegalStateException("long[] batches need a filter built with Funnels.longFunnel(), not " + funnel);
    }
  }

  private void hashInto(T item, HashingSink sink, long[] hashes, int i) {
    Objects.requireNonNull(item, "item"); // as add(null) does, whatever the funnel would make of it
    sink.hash(item, funnel);
    hashes[2 * i] = sink.h1;
    hashes[2 * i + 1] = sink.h2;
  }

  private static void hashLong(long v, long[] hashes, int i) {
    hashes[2 * i] = Murmur3.longH1(v);
    hashes[2 * i + 1] = Murmur3.longH2(v);
  }

  private int addHashedBatch(long[] hashes, int n) {
    warm(tableVolatile().words, hashes, n);
    int changed = 0;
    for (int i = 0; i < n; i++) {
      if (addHashed(hashes[2 * i], hashes[2 * i + 1])) {
        changed++;
      }
    }
    return changed;
  }

  private void mightContainHashedBatch(long[] hashes, int n, boolean[] results, int offset) {
    BitTable t = tableVolatile();
    warm(t.words, hashes, n);
    for (int i = 0; i < n; i++) {
      results[offset + i] = mightContainHashed(t, hashes[2 * i], hashes[2 * i + 1]);
    }
  }

  private void warm(long[] words, long[] hashes, int n) {
    long sum = 0;
    for (int i = 0; i < n; i++) {
      sum += layout.touch(words, hashes[2 * i], hashes[2 * i + 1]);
    }
    warmSink = sum;
  }

  /** add for an item whose hash halves are (h1, h2); package-private for filters built of layers. */
  boolean addHashed(long h1, long h2) {
    BitTable t = tableVolatile();
    for (Transition sealed; (sealed = t.nextVolatile()) != null; ) {
      t = help(sealed); // sealed before this add touched it: the add belongs after that transition
    }
    boolean changed = layout.set(t.words, h1, h2);
    // Sealed meanwhile. By a clear: this add is ordered just before it and stays cleared (a query may
    // already have seen it here). By a merge: our bits may have missed the copy, so set them again in
    // that merge's successor (not in whatever table is current: a later clear must still win).
    for (Transition next; (next = t.nextVolatile()) != null && !next.isClear(); ) {
      complete(next);
      t = next.to;
      changed |= layout.set(t.words, h1, h2);
    }
    if (changed) {
      t.adds.increment();
    }
    return changed;
  }

  /** mightContain for an item whose hash halves are (h1, h2); for filters built of layers. */
  boolean mightContainHashed(long h1, long h2) {
    return mightContainHashed(tableVolatile(), h1, h2);
  }

  private boolean mightContainHashed(BitTable table, long h1, long h2) {
    BitTable t = table;
    for (;;) {
      if (!layout.test(t.words, h1, h2)) {
        return false;
      }
      Transition next = t.nextVolatile();
      if (next == null) {
        return true;
      }
      t = help(next);
    }
  }

  // ---------------------------------------------------------------- table swaps

  private BitTable tableVolatile() {
    return (BitTable) TABLE.getVolatile(this);
  }

  /** Finishes {@code t} (whoever started it): its successor is complete and installed on return. */
  private void complete(Transition t) {
    t.finishCopy();
    TABLE.compareAndSet(this, t.from, t.to);
  }

  /** Finishes {@code t} and returns the table that is current afterwards. */
  private BitTable help(Transition t) {
    complete(t);
    return tableVolatile();
  }

  /** Seals the current table for a transition made by {@code maker}, completes it, and returns. */
  private void replaceTable(java.util.function.Function<BitTable, Transition> maker) {
    for (;;) {
      BitTable current = tableVolatile();
      Transition pending = current.nextVolatile();
      if (pending != null) {
        help(pending);
        continue;
      }
      Transition mine = maker.apply(current);
      if (current.casSeal(mine)) {
        help(mine);
        return;
      }
    }
  }

  /** Removes every item, atomically with respect to concurrent operations. Allocates a new bit array. */
  @Override
  public void clear() {
    replaceTable(Transition::toEmpty);
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
    BitTable source = other.tableVolatile();
    long otherCount = source.count();
    replaceTable(current -> Transition.toUnion(current, source.words, otherCount));
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
    BitTable t = tableVolatile();
    long count = t.count();
    return loaded(funnel, layout, expectedInsertions, fpp, AtomicWords.copyAcquire(t.words), count);
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
    return tableVolatile().count();
  }

  /** The fraction of bits set, in [0, 1]. Scans the whole array: O(m/64). */
  @Override
  public double fillRatio() {
    return (double) setBits() / layout.bits;
  }

  /**
   * An estimate of the current false-positive probability from the bits set, X of m: the layout's model
   * at the number of distinct items those bits imply, n = -(m/k) ln(1 - X/m). For the standard and
   * Guava layouts that is exactly (X/m)^k; for the blocked one, the Poisson block model. Being read off
   * the bits, it stays right after merges of overlapping filters, after loads, and past capacity, where
   * {@link #count()} (which skips adds that found their bits set) falls behind. 1.0 when every bit is
   * set. Scans the array: O(m/64).
   */
  @Override
  public double estimatedFpp() {
    return Sizing.fppFromSetCells(layout.bits, layout.hashFunctions, setBits(), layout::expectedFpp);
  }

  /**
   * An estimate of the number of distinct items added, from the number X of set bits
   * (Swamidass and Baldi 2007): -(m/k) ln(1 - X/m). Unlike {@link #count()} it stays meaningful after
   * merges and loads. Returns {@code Long.MAX_VALUE} when every bit is set. Scans the array: O(m/64).
   */
  @Override
  public long approximateElementCount() {
    return Sizing.estimateElements(layout.bits, layout.hashFunctions, setBits());
  }

  /** A filter over existing words (read from a stream, or copied): the caller hands over {@code words}. */
  static <T> BloomFilter<T> loaded(Funnel<? super T> funnel, Layout layout, long n, double fpp, long[] words,
      long count) {
    return new BloomFilter<>(funnel, layout, n, fpp,
        new BitTable(words, new LongAdder(), count));
  }

  Layout layout() {
    return layout;
  }

  /** The words of the current table, for tests that inspect where bits landed. */
  long[] currentWords() {
    return tableVolatile().words;
  }

  /** The number of bits set, read with acquire semantics: O(m/64). */
  long setBits() {
    return AtomicWords.bitCountAcquire(tableVolatile().words);
  }

  // ---------------------------------------------------------------- persistence

  /**
   * Writes this filter in the format of docs/FORMAT.md. The bytes hold every add that finished before
   * this call began. Does not close {@code out}.
   */
  @Override
  public void writeTo(OutputStream out) throws IOException {
    Objects.requireNonNull(out, "out");
    if (layout instanceof GuavaMitz32Layout) {
      // The CBLM format has no strategy id for these probes; a file could only be read back wrongly.
      throw new IOException("this filter was read from Guava's MURMUR128_MITZ_32 bytes (" + layout.shape()
          + "), which the filter file format cannot hold: query it, and rebuild from the source data with"
          + " BloomFilter.builder(...) to save it");
    }
    BitTable t = tableVolatile();
    FilterFormat.write(out, new FilterFormat.Header(layout.type(), layout.strategy(), KeyType.of(funnel),
        layout.bits, layout.hashFunctions, expectedInsertions, fpp, t.count()), t.words);
  }

  /**
   * Reads a filter written by {@link #writeTo}. The file records only the funnel's {@link KeyType}; pass
   * the funnel the filter was built with. Reads exactly the filter's bytes and does not close {@code in}.
   *
   * @throws IOException if the stream ends early or the bytes are not a valid filter (wrong magic,
   *     unknown version, type or strategy, inconsistent sizes, checksum mismatch), or the file records a
   *     key type other than the funnel's (see {@link Funnels#withKeyType}); no partial filter is returned
   *     and nothing larger than the bytes actually present is allocated
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

  /** "standard", "blocked" or "guava": the layout this filter was built with. */
  public String layoutName() {
    return layout.name();
  }

  /**
   * Value equality, as Guava's: true iff {@code o} is a {@code BloomFilter} with the same layout, bit
   * count, hash function count and hash strategy, an {@code equal} funnel, and the same bits set. Neither
   * n, p nor {@link #count()} take part (they do not change any answer). Under concurrent adds, clears or
   * merges it compares snapshots: each filter's words are read one by one during the call, so the result
   * holds for some state each filter passed through during it, not necessarily at one common instant.
   * O(m/64).
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
    long[] mine = tableVolatile().words;
    long[] theirs = other.tableVolatile().words;
    for (int i = 0; i < mine.length; i++) {
      if (AtomicWords.getAcquire(mine, i) != AtomicWords.getAcquire(theirs, i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Consistent with {@link #equals}: a hash of the shape, the funnel and the bits. It changes as items are
   * added, so a filter that is still being written is no key for a hash map. O(m/64).
   */
  @Override
  public int hashCode() {
    int h = 31 * (31 * (31 * Long.hashCode(layout.bits) + layout.hashFunctions) + layout.strategy())
        + funnel.hashCode();
    long[] words = tableVolatile().words;
    for (int i = 0; i < words.length; i++) {
      h = 31 * h + Long.hashCode(AtomicWords.getAcquire(words, i));
    }
    return h;
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
    sizedLayout(expectedInsertions, fpp, false); // fails now on bad arguments; allocates nothing
    return Collector.of(
        () -> BloomFilter.<T>create(funnel, expectedInsertions, fpp),
        BloomFilter::add,
        (a, b) -> {
          a.merge(b);
          return a;
        },
        Collector.Characteristics.UNORDERED, Collector.Characteristics.CONCURRENT);
  }

  @Override
  public String toString() {
    return "BloomFilter[layout=" + layout.name() + ", bits=" + layout.bits + ", hashFunctions="
        + layout.hashFunctions + ", expectedInsertions="
        + expectedInsertions + ", fpp=" + fpp + ", count=" + count() + ", funnel=" + funnel + "]";
  }
}
