package org.concurrentbloom;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.concurrentbloom.internal.VisibleForTesting;

/**
 * A Bloom filter that supports {@link #remove}: each of its m cells is a 4-bit counter instead of a bit
 * (Fan, Cao, Almeida and Broder, "Summary Cache", IEEE/ACM ToN 2000), so it takes 4 times the memory of a
 * {@link BloomFilter} of the same n and p.
 *
 * <p>{@link #mightContain} never returns false for an item added more often than removed, unless an item
 * that was never added (or already removed) was removed: such a remove can succeed, since all its
 * counters may be non-zero through other items, and then takes their counts. That is inherent in
 * counting filters; remove only what you added.
 *
 * <h2>Thread safety</h2>
 * Every method may be called from any thread at any time.
 * <ul>
 *   <li>{@code mightContain} takes no lock and never waits (a bounded number of reads).
 *   <li>{@code add} changes its counters with compare-and-exchange and never waits for another add; it
 *       waits only while a remove or a bulk operation holds the stripe its item maps to.
 *   <li>{@code remove} is atomic with respect to every other operation: it succeeds or changes nothing,
 *       two removes of an item added once cannot both succeed, and it never acts on half of an add.
 *   <li>{@code clear} and {@code merge} are linearizable: each takes effect at one instant for every
 *       reader. They and {@code copy}, {@code writeTo} and {@code toBloomFilter} pause adds and removes
 *       for one pass over the counters; the last three then hold exactly the adds and removes that
 *       finished before that pass.
 *   <li>Two concurrent adds of the same new item may both return true, and {@link #count()} then counts
 *       it twice, as in {@link BloomFilter}.
 * </ul>
 *
 * <h2>Hashing and positions</h2>
 * The item's counters are the bits the standard layout of {@link BloomFilter} would use for m bits and k
 * hash functions under the filter's hash strategy (XXH3-64 for new filters, strategy 4; MurmurHash3 x64
 * 128 in files of strategy 1; both with enhanced double hashing: docs/HASHING.md), so
 * {@link #toBloomFilter()} is the standard filter those items would have built. A probe that repeats a
 * counter counts once: an item's counters are a set.
 *
 * @param <T> the type of item
 */
public final class CountingBloomFilter<T> implements MembershipFilter<T> {
  /*
   * Count. add returns true iff one of its counters was 0, i.e. the item was definitely absent (MembershipFilter's
   * contract). count() is adds that returned true less removes after which the item is definitely absent
   * (one of its counters reached 0). For items with disjoint counters that is exactly the number of
   * distinct items present, however often each was added: a repeated add returns false and is not
   * counted, and only the remove of the last copy is. ("Adds that returned true less successful removes"
   * would make add, add, remove count 0 with the item still present.) False positives of add can make
   * the raw sum negative; count() floors it at 0.
   *
   * Counters, stuck counters and concurrency: GatedCounters, where counters change, says why a remove
   * needs more than a CAS per word and how its gate works.
   */

  private final Funnel<? super T> funnel;
  private final long counters;
  private final int hashFunctions;
  private final long expectedInsertions;
  private final double fpp;
  private final GatedCounters cells;
  /** 4 (XXH3, new filters) or 1 (MurmurHash3, files written before strategy 4); the probes are the same. */
  private final HashStrategy strategy;

  /** A filter over {@code words}, which the caller hands over, behind a gate of at most {@code maxStripes}. */
  private CountingBloomFilter(Funnel<? super T> funnel, HashStrategy strategy, long counters, int hashFunctions,
      long expectedInsertions, double fpp, long[] words, long count, int maxStripes) {
    this.funnel = Objects.requireNonNull(funnel, "funnel");
    this.strategy = FilterType.COUNTING.requireAdmitted(strategy);
    this.counters = counters;
    this.hashFunctions = hashFunctions;
    this.expectedInsertions = expectedInsertions;
    this.fpp = fpp;
    this.cells = new GatedCounters(new CounterTable(words, count), maxStripes);
  }

  /**
   * Creates an empty filter sized for {@code expectedInsertions} items at false-positive probability
   * {@code fpp}: the m and k of {@link BloomFilter#create} for the same arguments, with m counters of
   * 4 bits. The same as {@code builder(funnel).expectedInsertions(n).fpp(p).build()}.
   *
   * @throws IllegalArgumentException if {@code expectedInsertions < 1}, {@code fpp} is not in (0, 1),
   *     -n ln p / (ln 2)^2 is below one counter (as {@link BloomFilter#create}), or the counters would not
   *     fit in the largest {@code long[]} (about 2^35 counters, 16 GiB); the message names the bad value
   */
  public static <T> CountingBloomFilter<T> create(Funnel<? super T> funnel, long expectedInsertions,
      double fpp) {
    return CountingBloomFilter.<T>builder(funnel).expectedInsertions(expectedInsertions).fpp(fpp).build();
  }

  /** Starts a filter description: {@code CountingBloomFilter.builder(funnel).expectedInsertions(n).fpp(p).build()}. */
  public static <T> Builder<T> builder(Funnel<? super T> funnel) {
    return new Builder<>(funnel);
  }

  /** Describes a counting filter before it is built. Not thread-safe; the filters it builds are. */
  public static final class Builder<T> extends SizedBuilder<T, Builder<T>> {
    private HashStrategy strategy = FilterType.COUNTING.strategy();

    private Builder(Funnel<? super T> funnel) {
      super(funnel);
    }

    /**
     * Selects the hash strategy instead of the default, 4 (XXH3): {@link HashStrategy#MURMUR3_128_ENHANCED_DOUBLE}
     * builds a filter whose counters match those of the files written before strategy 4, to merge with
     * one. {@link #build()} refuses any other strategy.
     */
    public Builder<T> hashStrategy(HashStrategy strategy) {
      this.strategy = Objects.requireNonNull(strategy, "strategy");
      return this;
    }

    @Override
    Builder<T> self() {
      return this;
    }

    // Narrowed so that the compiled signatures name this class, not the package-private base.

    @Override
    public Builder<T> expectedInsertions(long expectedInsertions) {
      return super.expectedInsertions(expectedInsertions);
    }

    @Override
    public Builder<T> fpp(double fpp) {
      return super.fpp(fpp);
    }

    /**
     * The number of counters (m) {@link #build()} would allocate, computed without allocating them, so a
     * caller can check the memory first (m / 2 bytes, rounded up to whole 64-bit words of 16 counters).
     *
     * @throws IllegalStateException as {@link #build()}
     * @throws IllegalArgumentException as {@link #build()}
     */
    public long counterCount() {
      long n = requireExpectedInsertions();
      long m = Sizing.optimalBits(n, fpp);
      if (m > CounterWords.MAX_COUNTERS) {
        throw new IllegalArgumentException(String.format(
            "expectedInsertions=%d at fpp=%s needs %d counters, past the limit of %d counters (4 bits each,"
                + " %d words of a long[])", n, fpp, m, CounterWords.MAX_COUNTERS, Sizing.MAX_WORDS));
      }
      return m;
    }

    /**
     * Builds an empty filter of {@link #counterCount()} counters and the k of {@link BloomFilter#create}.
     *
     * @throws IllegalStateException if {@link #expectedInsertions} was not set
     * @throws IllegalArgumentException if -n ln p / (ln 2)^2 is below one counter, the counters would
     *     not fit in the largest {@code long[]}, or a counting filter does not take the
     *     {@link #hashStrategy}; the message names the value
     */
    public CountingBloomFilter<T> build() {
      long m = counterCount();
      return new CountingBloomFilter<>(funnel, strategy, m, Sizing.optimalHashFunctions(expectedInsertions, fpp),
          expectedInsertions, fpp, new long[CounterWords.wordsFor(m)], 0, GatedCounters.MAX_STRIPES);
    }
  }

  /**
   * A filter of exactly {@code counters} counters and {@code k} probes, n and p derived from them, hash
   * strategy 1.
   */
  @VisibleForTesting
  static <T> CountingBloomFilter<T> withShape(Funnel<? super T> funnel, long counters, int k) {
    return withShape(funnel, counters, k, GatedCounters.MAX_STRIPES);
  }

  /**
   * {@link #withShape(Funnel, long, int)} with at most {@code maxStripes} stripes (a power of two), for
   * the model checker, whose search is diluted by every stripe a bulk operation enters.
   */
  @VisibleForTesting
  static <T> CountingBloomFilter<T> withShape(Funnel<? super T> funnel, long counters, int k, int maxStripes) {
    CounterWords.checkShape(counters, k);
    long n = Math.max(1, Math.round(counters * Math.log(2) / k));
    double p = Math.min(0.5, Math.max(Double.MIN_VALUE, Sizing.expectedFpp(counters, k, n)));
    return new CountingBloomFilter<>(funnel, HashStrategy.MURMUR3_128_ENHANCED_DOUBLE, counters, k, n, p,
        new long[CounterWords.wordsFor(counters)], 0, maxStripes);
  }

  // ---------------------------------------------------------------- add, remove, query

  /**
   * Adds one copy of {@code item}: increments each of its k counters (except those stuck at 15).
   * Returns true iff one of them was 0, that is, iff the item was definitely absent before (up to
   * concurrent adds of the same item: see the class comment).
   *
   * @throws NullPointerException if {@code item} is null
   */
  @Override
  public boolean add(T item) {
    return cells.add(CounterProbes.hashed(item, funnel, strategy).group(counters, hashFunctions));
  }

  /**
   * Removes one copy of {@code item}, if all k of its counters are above 0: decrements each of them
   * (except those stuck at 15) and returns true. Otherwise returns false and changes nothing. Atomic:
   * concurrent operations see no partial result that could make another item absent, and two removes
   * of an item added once cannot both succeed.
   *
   * <p>Only remove items that were added: a never-added item whose counters are all non-zero through
   * other items is removed "successfully" and takes their counts, which can make them absent.
   *
   * @throws NullPointerException if {@code item} is null
   */
  public boolean remove(T item) {
    return cells.remove(CounterProbes.hashed(item, funnel, strategy).group(counters, hashFunctions));
  }

  /**
   * Returns false if {@code item} is definitely absent: never added, or removed as often as added; true
   * if it might be present. Takes no lock.
   *
   * @throws NullPointerException if {@code item} is null
   */
  @Override
  public boolean mightContain(T item) {
    return allNonZero(CounterProbes.hashed(item, funnel, strategy));
  }

  /**
   * {@code add(Long.valueOf(key))} without the box: the same counters, the same answer.
   *
   * @throws IllegalStateException if this filter's funnel is not {@link Funnels#longFunnel()}
   */
  public boolean addLong(long key) {
    Funnels.requireLongKeys(funnel);
    return cells.add(CounterProbes.hashedLong(key, strategy).group(counters, hashFunctions));
  }

  /**
   * {@code remove(Long.valueOf(key))} without the box.
   *
   * @throws IllegalStateException if this filter's funnel is not {@link Funnels#longFunnel()}
   */
  public boolean removeLong(long key) {
    Funnels.requireLongKeys(funnel);
    return cells.remove(CounterProbes.hashedLong(key, strategy).group(counters, hashFunctions));
  }

  /**
   * {@code mightContain(Long.valueOf(key))} without the box.
   *
   * @throws IllegalStateException if this filter's funnel is not {@link Funnels#longFunnel()}
   */
  public boolean mightContainLong(long key) {
    Funnels.requireLongKeys(funnel);
    return allNonZero(CounterProbes.hashedLong(key, strategy));
  }

  private boolean allNonZero(CounterProbes hashed) {
    long[] positions = hashed.positions(counters, hashFunctions).positions;
    long[] words = cells.words();
    for (int i = 0; i < hashFunctions; i++) {
      if (CounterWords.getAcquire(words, positions[i]) == 0) {
        return false;
      }
    }
    return true;
  }

  // ---------------------------------------------------------------- bulk operations

  /** Removes every item, atomically for readers; afterwards {@link #count()} is 0. Allocates m/2 bytes. */
  @Override
  public void clear() {
    cells.clear();
  }

  /**
   * Adds every counter of {@code other} to this filter's, saturating at 15 (so a sum of 15 or more is a
   * stuck counter), atomically for readers of this filter. {@code other} may be in use by other threads:
   * the adds and removes that finished before its snapshot are merged. {@code merge(this)} doubles every
   * counter. {@link #count()} becomes the sum of both counts. Allocates m/2 bytes (twice that for the
   * snapshot of {@code other}).
   *
   * @throws IllegalArgumentException if the filters are not {@linkplain #isCompatible compatible}; the
   *     message names both shapes, or both funnels when they are what differs
   */
  public void merge(CountingBloomFilter<T> other) {
    Objects.requireNonNull(other, "other");
    if (counters != other.counters || hashFunctions != other.hashFunctions || strategy != other.strategy) {
      throw new IllegalArgumentException("cannot merge " + other.shape() + " into " + shape()
          + ": counter count, hash function count and hash strategy must be equal");
    }
    String funnels = Funnels.incompatibility(funnel, other.funnel);
    if (funnels != null) {
      throw new IllegalArgumentException("cannot merge a filter of " + other.funnel + " into one of " + funnel
          + ": " + funnels);
    }
    cells.merge(other.cells.snapshot());
  }

  /**
   * True iff {@link #merge} would accept {@code other}: the same number of counters and hash functions
   * (and hash strategy), and funnels not known to write different bytes, by the rule of
   * {@link BloomFilter#isCompatible}.
   */
  public boolean isCompatible(CountingBloomFilter<T> other) {
    Objects.requireNonNull(other, "other");
    return counters == other.counters && hashFunctions == other.hashFunctions && strategy == other.strategy
        && Funnels.incompatibility(funnel, other.funnel) == null;
  }

  /** An independent filter with the same shape, counters and count as this one at one instant. */
  public CountingBloomFilter<T> copy() {
    GatedCounters.Snapshot s = cells.snapshot();
    return new CountingBloomFilter<>(funnel, strategy, counters, hashFunctions, expectedInsertions, fpp, s.words(),
        s.count(), GatedCounters.MAX_STRIPES);
  }

  /**
   * A standard {@link BloomFilter} (standard layout, the same m, k and hash strategy) whose bit i is set iff counter i
   * is non-zero: it answers {@code mightContain} exactly as this filter did at one instant, and its
   * {@link BloomFilter#count()} is this filter's {@link #count()}.
   */
  public BloomFilter<T> toBloomFilter() {
    GatedCounters.Snapshot s = cells.snapshot();
    return BloomFilter.loaded(funnel, new StandardLayout(counters, hashFunctions, strategy), expectedInsertions, fpp,
        CounterWords.toBits(s.words(), counters), s.count());
  }

  // ---------------------------------------------------------------- statistics

  /** m, the number of counters. */
  public long counterCount() {
    return counters;
  }

  /** Bits of storage: 4 per counter. */
  @Override
  public long bitSize() {
    return 4 * counters;
  }

  /** k, the number of counters each item uses (fewer if two of its probes coincide). */
  public int hashFunctions() {
    return hashFunctions;
  }

  /** The hash strategy: 4 (XXH3) for new filters, 1 (MurmurHash3) in files written before strategy 4. */
  public HashStrategy hashStrategy() {
    return strategy;
  }

  /** The n this filter was sized for. */
  @Override
  public long expectedInsertions() {
    return expectedInsertions;
  }

  /** The false-positive probability this filter was sized for at {@link #expectedInsertions()} items. */
  @Override
  public double fpp() {
    return fpp;
  }

  /**
   * Adds that returned true less removes after which the item was definitely absent (one of its counters
   * reached 0), plus what {@link #merge} and {@link #readFrom} brought in; never below 0. For items whose
   * counters are disjoint this is the number of distinct items present, however often each was added;
   * false positives and concurrent adds of the same item make it an estimate (see the class comment).
   */
  @Override
  public long count() {
    return cells.count();
  }

  /** The fraction of counters that are non-zero, in [0, 1]. Scans the counters: O(m/16). */
  @Override
  public double fillRatio() {
    return (double) cells.nonZeroCounters() / counters;
  }

  /**
   * An estimate of the current false-positive probability from the X of m counters that are non-zero:
   * (X/m)^k, as for a standard filter of m bits. Read off the counters, it stays right after merges
   * and loads, where {@link #count()} may not. Scans the counters: O(m/16).
   */
  @Override
  public double estimatedFpp() {
    return Sizing.fppFromSetCells(counters, hashFunctions, cells.nonZeroCounters(),
        n -> Sizing.expectedFpp(counters, hashFunctions, n));
  }

  /**
   * An estimate of the number of distinct items present from the number X of non-zero counters
   * (Swamidass and Baldi 2007): -(m/k) ln(1 - X/m); {@code Long.MAX_VALUE} when every counter is
   * non-zero. Scans the counters: O(m/16).
   */
  @Override
  public long approximateElementCount() {
    return Sizing.estimateElements(counters, hashFunctions, cells.nonZeroCounters());
  }

  /**
   * The number of counters stuck at 15 (saturated). Each can cause false positives, never false
   * negatives; many mean the filter holds far more items than it was sized for. Scans: O(m/16).
   */
  public long stuckCounters() {
    return cells.stuckCounters();
  }

  /** The words of the current table, to inspect the counters. */
  @VisibleForTesting
  long[] currentWords() {
    return cells.words();
  }

  // ---------------------------------------------------------------- persistence

  /**
   * Writes this filter in the format of docs/FORMAT.md (type 4, the counters as payload): the state at
   * one instant, as {@link #copy()} sees it (a snapshot is taken first, so a slow stream does not hold up
   * adds). Does not close {@code out}.
   */
  @Override
  public void writeTo(OutputStream out) throws IOException {
    Objects.requireNonNull(out, "out");
    CountingFormat.write(out, KeyType.of(funnel), strategy, counters, hashFunctions, expectedInsertions, fpp,
        cells.snapshot());
  }

  /**
   * Reads a filter written by {@link #writeTo}. The file records only the funnel's {@link KeyType}; pass
   * the funnel the filter was built with. Reads exactly the filter's bytes and does not close {@code in}.
   *
   * @throws IOException if the stream ends early or the bytes are not a valid counting filter (a filter
   *     of another type, wrong magic, unknown version or strategy, inconsistent sizes, counters set past
   *     m, checksum mismatch), or the file records a key type other than the funnel's; no partial filter
   *     is returned and nothing larger than the bytes actually present is allocated
   */
  public static <T> CountingBloomFilter<T> readFrom(InputStream in, Funnel<? super T> funnel) throws IOException {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(funnel, "funnel");
    CountingFormat.Loaded loaded = CountingFormat.read(in, funnel);
    FilterFormat.Header h = loaded.header();
    return new CountingBloomFilter<>(funnel, h.strategy(), h.bits(), h.hashFunctions(), h.expectedInsertions(),
        h.fpp(), loaded.words(), h.count(), GatedCounters.MAX_STRIPES);
  }

  private String shape() {
    return "CountingBloomFilter[counters=" + counters + ", hashFunctions=" + hashFunctions + ", hashStrategy="
        + strategy.id() + "]";
  }

  @Override
  public String toString() {
    return "CountingBloomFilter[counters=" + counters + ", hashFunctions=" + hashFunctions + ", hashStrategy="
        + strategy.id() + ", expectedInsertions=" + expectedInsertions + ", fpp=" + fpp + ", count=" + count()
        + ", funnel=" + funnel + "]";
  }
}
