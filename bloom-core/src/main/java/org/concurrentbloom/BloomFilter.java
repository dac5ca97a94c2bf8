package org.concurrentbloom;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

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
 * <h2>Hashing</h2>
 * MurmurHash3 x64 128 of the funnel's bytes, then k probes by enhanced double hashing; see
 * {@code Probes} and docs/HASHING.md for the exact derivation. Hashing allocates nothing.
 *
 * @param <T> the type of item
 */
public final class BloomFilter<T> {
  private static final VarHandle TABLE;

  static {
    try {
      TABLE = MethodHandles.lookup().findVarHandle(BloomFilter.class, "table", BitTable.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Funnel<? super T> funnel;
  private final long bitSize;
  private final int hashFunctions;
  private final long expectedInsertions;
  private final double fpp;
  @SuppressWarnings("unused") // accessed through TABLE
  private volatile BitTable table;

  BloomFilter(Funnel<? super T> funnel, long bitSize, int hashFunctions, long expectedInsertions,
      double fpp, BitTable table) {
    Sizing.checkShape(bitSize, hashFunctions);
    if (table.words.length != Sizing.wordsFor(bitSize)) {
      throw new IllegalArgumentException(
          "bit array of " + table.words.length + " words does not fit " + bitSize + " bits");
    }
    this.funnel = Objects.requireNonNull(funnel, "funnel");
    this.bitSize = bitSize;
    this.hashFunctions = hashFunctions;
    this.expectedInsertions = expectedInsertions;
    this.fpp = fpp;
    this.table = table;
  }

  /**
   * Creates an empty filter sized for {@code expectedInsertions} items at false-positive probability
   * {@code fpp}: m = -n ln p / (ln 2)^2 bits rounded up to whole 64-bit words, k = round(-log2 p).
   *
   * @throws IllegalArgumentException if {@code expectedInsertions < 1}, {@code fpp} is not in (0, 1),
   *     or the filter would need more than about 2^37 bits (the largest {@code long[]})
   */
  public static <T> BloomFilter<T> create(Funnel<? super T> funnel, long expectedInsertions, double fpp) {
    Objects.requireNonNull(funnel, "funnel");
    long bits = Sizing.optimalBits(expectedInsertions, fpp);
    int k = Sizing.optimalHashFunctions(expectedInsertions, fpp);
    return new BloomFilter<>(funnel, bits, k, expectedInsertions, fpp, BitTable.empty(Sizing.wordsFor(bits)));
  }

  /** A filter of exactly {@code bits} bits and {@code k} hash functions, for tests that need a shape. */
  static <T> BloomFilter<T> withShape(Funnel<? super T> funnel, long bits, int k) {
    Sizing.checkShape(bits, k);
    double fpp = Sizing.expectedFpp(bits, k, Math.max(1.0, bits * Math.log(2) / k));
    long n = Math.max(1, Math.round(bits * Math.log(2) / k));
    return new BloomFilter<>(funnel, bits, k, n, fpp, BitTable.empty(Sizing.wordsFor(bits)));
  }

  // ---------------------------------------------------------------- add and query

  /**
   * Adds {@code item}. Returns true iff this call turned on at least one bit, that is, iff the item was
   * definitely not in the filter before (up to concurrent adds of the same item: see the class comment).
   */
  public boolean add(T item) {
    HashingSink sink = HashingSink.acquire();
    long h1;
    long h2;
    try {
      sink.hash(item, funnel);
      h1 = sink.h1;
      h2 = sink.h2;
    } finally {
      sink.release();
    }
    return addHashed(h1, h2);
  }

  /** Returns false if {@code item} was definitely never added; true if it might have been. */
  public boolean mightContain(T item) {
    HashingSink sink = HashingSink.acquire();
    long h1;
    long h2;
    try {
      sink.hash(item, funnel);
      h1 = sink.h1;
      h2 = sink.h2;
    } finally {
      sink.release();
    }
    return mightContainHashed(h1, h2);
  }

  private boolean addHashed(long h1, long h2) {
    BitTable t = tableVolatile();
    for (Transition sealed; (sealed = t.nextVolatile()) != null; ) {
      t = help(sealed); // sealed before this add touched it: the add belongs after that transition
    }
    boolean changed = setBits(t.words, h1, h2);
    // Sealed meanwhile. By a clear: this add is ordered just before it and stays cleared (a query may
    // already have seen it here). By a merge: our bits may have missed the copy, so set them again in
    // that merge's successor (not in whatever table is current: a later clear must still win).
    for (Transition next; (next = t.nextVolatile()) != null && !next.isClear(); ) {
      complete(next);
      t = next.to;
      changed |= setBits(t.words, h1, h2);
    }
    if (changed) {
      t.adds.increment();
    }
    return changed;
  }

  private boolean mightContainHashed(long h1, long h2) {
    BitTable t = tableVolatile();
    for (;;) {
      if (!testBits(t.words, h1, h2)) {
        return false;
      }
      Transition next = t.nextVolatile();
      if (next == null) {
        return true;
      }
      t = help(next);
    }
  }

  private boolean setBits(long[] words, long h1, long h2) {
    long m = bitSize;
    long x = Probes.reduce(h1, m);
    long y = Probes.reduce(h2, m);
    boolean changed = false;
    for (int i = 1; ; i++) {
      changed |= AtomicWords.setBitCas(words, x);
      if (i == hashFunctions) {
        return changed;
      }
      x = Probes.nextIndex(x, y, m);
      y = Probes.nextStep(y, i, m);
    }
  }

  private boolean testBits(long[] words, long h1, long h2) {
    long m = bitSize;
    long x = Probes.reduce(h1, m);
    long y = Probes.reduce(h2, m);
    for (int i = 1; ; i++) {
      if (!AtomicWords.testBitAcquire(words, x)) {
        return false;
      }
      if (i == hashFunctions) {
        return true;
      }
      x = Probes.nextIndex(x, y, m);
      y = Probes.nextStep(y, i, m);
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
  public void clear() {
    replaceTable(Transition::toEmpty);
  }

  /**
   * Adds every item of {@code other} to this filter (bitwise OR), atomically with respect to concurrent
   * operations on this filter. {@code other} may be in use by other threads; its adds that finished
   * before this call began are included. Both filters must use equivalent funnels; {@link #count()}
   * becomes the sum of both counts, an overestimate when they share items.
   *
   * @throws IllegalArgumentException if the filters are not {@linkplain #isCompatible compatible};
   *     the message names both shapes
   */
  public void merge(BloomFilter<T> other) {
    Objects.requireNonNull(other, "other");
    if (!isCompatible(other)) {
      throw new IllegalArgumentException("cannot merge " + other.shape() + " into " + shape()
          + ": bit count and hash function count must be equal");
    }
    if (other == this) {
      return;
    }
    BitTable source = other.tableVolatile();
    long otherCount = source.count();
    replaceTable(current -> Transition.toUnion(current, source.words, otherCount));
  }

  /** True iff {@code other} has the same bit count, hash function count and hash strategy. */
  public boolean isCompatible(BloomFilter<T> other) {
    Objects.requireNonNull(other, "other");
    return bitSize == other.bitSize && hashFunctions == other.hashFunctions;
  }

  /** An independent filter with the same shape and every add that finished before this call. */
  public BloomFilter<T> copy() {
    BitTable t = tableVolatile();
    long count = t.count();
    BitTable snapshot = new BitTable(AtomicWords.copyAcquire(t.words), new java.util.concurrent.atomic.LongAdder(), count);
    return new BloomFilter<>(funnel, bitSize, hashFunctions, expectedInsertions, fpp, snapshot);
  }

  // ---------------------------------------------------------------- statistics

  /** m, the number of bits. */
  public long bitSize() {
    return bitSize;
  }

  /** k, the number of bits set or tested per item. */
  public int hashFunctions() {
    return hashFunctions;
  }

  /** The n this filter was sized for. */
  public long expectedInsertions() {
    return expectedInsertions;
  }

  /** The false-positive probability this filter was sized for at {@link #expectedInsertions()} items. */
  public double fpp() {
    return fpp;
  }

  /**
   * The number of {@link #add} calls that returned true since creation or the last {@link #clear()},
   * plus what {@link #merge} and {@link #readFrom} brought in. See the class comment for concurrent adds.
   */
  public long count() {
    return tableVolatile().count();
  }

  /** The fraction of bits set, in [0, 1]. Scans the whole array: O(m/64). */
  public double fillRatio() {
    return (double) setBits() / bitSize;
  }

  /**
   * An estimate of the current false-positive probability, (1 - e^(-k·count/m))^k. It assumes
   * {@link #count()} distinct items; after a merge of overlapping filters it is pessimistic.
   */
  public double estimatedFpp() {
    return Sizing.expectedFpp(bitSize, hashFunctions, count());
  }

  /**
   * An estimate of the number of distinct items added, from the number X of set bits
   * (Swamidass and Baldi 2007): -(m/k) ln(1 - X/m). Unlike {@link #count()} it stays meaningful after
   * merges and loads. Returns {@code Long.MAX_VALUE} when every bit is set. Scans the array: O(m/64).
   */
  public long approximateElementCount() {
    return Sizing.estimateElements(bitSize, hashFunctions, setBits());
  }

  /** The words of the current table, for tests that inspect where bits landed. */
  long[] currentWords() {
    return tableVolatile().words;
  }

  private long setBits() {
    return AtomicWords.bitCountAcquire(tableVolatile().words);
  }

  // ---------------------------------------------------------------- persistence

  /**
   * Writes this filter in the format of docs/FORMAT.md. The bytes hold every add that finished before
   * this call began. Does not close {@code out}.
   */
  public void writeTo(OutputStream out) throws IOException {
    BitTable t = tableVolatile();
    FilterFormat.write(out, new FilterFormat.Header(FilterFormat.TYPE_STANDARD, Probes.STRATEGY_MURMUR3_128_EDH,
        bitSize, hashFunctions, expectedInsertions, fpp, t.count()), t.words);
  }

  /**
   * Reads a filter written by {@link #writeTo}. The funnel is not stored; pass the one the filter was
   * built with. Reads exactly the filter's bytes and does not close {@code in}.
   *
   * @throws IOException if the stream ends early or the bytes are not a valid filter (wrong magic,
   *     unknown version, type or strategy, inconsistent sizes, checksum mismatch); no partial filter
   *     is returned and nothing larger than the bytes actually present is allocated
   */
  public static <T> BloomFilter<T> readFrom(InputStream in, Funnel<? super T> funnel) throws IOException {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(funnel, "funnel");
    FilterFormat.Loaded loaded = FilterFormat.read(in);
    FilterFormat.Header h = loaded.header();
    if (h.type() != FilterFormat.TYPE_STANDARD) {
      throw new IOException("filter type " + h.type() + " is not a standard BloomFilter (type "
          + FilterFormat.TYPE_STANDARD + ")");
    }
    BitTable t = new BitTable(loaded.words(), new java.util.concurrent.atomic.LongAdder(), h.count());
    return new BloomFilter<>(funnel, h.bits(), h.hashFunctions(), h.expectedInsertions(), h.fpp(), t);
  }

  // ---------------------------------------------------------------- object methods

  String shape() {
    return "BloomFilter[bits=" + bitSize + ", hashFunctions=" + hashFunctions + ", strategy="
        + Probes.STRATEGY_MURMUR3_128_EDH + "]";
  }

  @Override
  public String toString() {
    return "BloomFilter[bits=" + bitSize + ", hashFunctions=" + hashFunctions + ", expectedInsertions="
        + expectedInsertions + ", fpp=" + fpp + ", count=" + count() + ", funnel=" + funnel + "]";
  }
}
