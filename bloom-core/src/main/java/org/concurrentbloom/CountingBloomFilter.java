package org.concurrentbloom;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import java.util.zip.CRC32C;

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
 * hash functions (MurmurHash3 x64 128, enhanced double hashing: docs/HASHING.md), so
 * {@link #toBloomFilter()} is the standard filter those items would have built. A probe that repeats a
 * counter counts once: an item's counters are a set.
 *
 * @param <T> the type of item
 */
public final class CountingBloomFilter<T> implements MembershipFilter<T> {
  /*
   * Design.
   *
   * Counters. m counters of 4 bits, 16 to a long (CounterWords); m and k are the standard filter's for
   * (n, p) (Sizing). Fan et al. bound the probability that any counter reaches 16, with k = (m/n) ln 2, by
   * 1.37e-15 m, so 4 bits suffice; but an adversary or an overfilled filter can still get there.
   * So a counter that reaches 15 is stuck: it is never incremented (its true count may exceed 15), never
   * decremented (a decrement of an undercounted counter could reach 0 while an item still uses it: a false
   * negative) and a merge never moves it. A stuck counter can only cause false positives. A remove of an
   * item with a stuck counter decrements its other counters, each of which the item did increment, and
   * leaves the stuck one at 15 > 0: every other item keeps all its counters above 0.
   *
   * add returns true iff one of its counters was 0, i.e. the item was definitely absent (MembershipFilter's
   * contract). count() is adds that returned true less removes after which the item is definitely absent
   * (one of its counters reached 0). For items with disjoint counters that is exactly the number of
   * distinct items present, however often each was added: a repeated add returns false and is not
   * counted, and only the remove of the last copy is. ("Adds that returned true less successful removes"
   * would make add, add, remove count 0 with the item still present.) False positives of add can make
   * the raw sum negative; count() floors it at 0.
   *
   * Why remove needs more than a CAS per word. The counters of an item lie in up to k words, and no
   * hardware CAS spans them. Three hazards follow, each a false negative for an item nobody removed:
   *  (1) Rollback. Decrementing word by word with "only if > 0" and undoing on failure: two removes of an
   *      item X added once, whose counter A it shares with an item W (A = 2, X's counter B = 1). Both check
   *      and pass; both decrement A (to 0); one takes B, the other finds B = 0 and restores A. Until then
   *      A = 0 and W is absent, though the remove that did it returns false.
   *  (2) Half an add. remove(X) running during add(X) of an absent X: the add has incremented X's counter
   *      A but not yet B, which W holds at 1. The remove sees A = B = 1, succeeds and takes B to 0: W is
   *      absent until the add increments B. Sequentially (add, then remove) W is never absent.
   *  (3) Bulk operations. A merge or snapshot that sees half an add or half a remove writes a state no
   *      sequence of operations produces; removing from it can hit (2) later.
   * Readers need none of this. A remove that succeeds never undoes anything, so each counter it takes down
   * goes down once; it takes 1 from counters the removed item holds, so any other item present keeps every
   * counter above 0 (an item present twice keeps its own too); and the removed item itself may be seen
   * present or absent only while the remove runs, and absent ever after. So a reader that sees some of a
   * remove's decrements and not others answers as if before or after it, like a reader of a half-done add.
   *
   * Mechanism: a striped shared/exclusive gate (StripedGate), stripes being ranges of words. add enters the
   * stripe of its first probe's word shared; remove enters the stripes of all its words exclusively, in
   * ascending order; clear, merge and the snapshots (copy, writeTo, toBloomFilter, a merge's source) enter
   * all stripes exclusively. So (1) no two removes that share a word run at once: a remove that has checked
   * its counters then decrements them with no failure possible (adds only increase them, stuck counters
   * are skipped); (2) add(X) and remove(X) exclude each other (the first probe's word is one of X's
   * words); (3) bulk operations see no operation in progress. Readers take nothing. clear and merge build
   * the new counters aside and publish them with one volatile write (CounterTable), so readers see the
   * whole change at once, which makes both linearizable.
   *
   * Why these and not less: both hazards were observed. With add not entering the gate, the jcstress test
   * CountingAddRemoveSameItem saw hazard (2) (w reported absent) in 6 of 8 JVM configurations, 4 to 61
   * times in about 500,000 samples each; with remove not entering it, two removes of one add both passed
   * their check (the Lincheck, stress and jcstress tests all fail: the second decrement finds a zero).
   * A CAS per word is what adds and removes still do inside the gate, for the counters of other items
   * that share the word.
   *
   * Alternatives. A reader-writer lock over the whole filter with adds as readers serialises every add on
   * one cache line. Striping by the words an add touches needs k lock entries per add; stripe by the
   * first probe's word is one. A k-word CAS (Harris, Fraser and Pratt, "A Practical Multi-Word
   * Compare-and-Swap Operation", DISC 2002) would make remove lock-free but costs descriptor allocation
   * and 2k+1 CASes per remove, plus a descriptor check on every read. A seqlock would let readers retry
   * instead of seeing partial removes, which (above) they can safely see, and still needs removes to
   * exclude each other. The gate costs an add two atomic adds (enter, leave) on a line it shares with
   * 1/stripes of all adds, about a quarter of the add's own k = 7 CASes at p = 1%; a remove pays up to k
   * CASes to enter. A quick single-thread JMH comparison of add with and without the gate could not tell
   * them apart on a busy development machine (both about 250 ns at n = 1M, errors larger than the gap);
   * CountingBenchmark on an idle machine (docs/BENCHMARKS.md, String keys, n = 1M): add 297 ns with one
   * thread and 281 ns per thread with two (so the gate does not serialise adds), mightContain 77 ns and
   * 69 ns, against Commons Collections' unsynchronised ArrayCountingBloomFilter at 590 ns and 363 ns.
   */

  /** Stripes of the gate: many more than cores, so adds rarely share one; 32 KiB of padded slots. */
  private static final int MAX_STRIPES = 256;

  private final Funnel<? super T> funnel;
  private final long counters;
  private final int hashFunctions;
  private final long expectedInsertions;
  private final double fpp;
  private final StripedGate gate;
  /** Read by anyone; written only by clear and merge, which hold every stripe exclusively. */
  private volatile CounterTable table;

  private CountingBloomFilter(Funnel<? super T> funnel, long counters, int hashFunctions, long expectedInsertions,
      double fpp, CounterTable table) {
    this(funnel, counters, hashFunctions, expectedInsertions, fpp, table, MAX_STRIPES);
  }

  private CountingBloomFilter(Funnel<? super T> funnel, long counters, int hashFunctions, long expectedInsertions,
      double fpp, CounterTable table, int maxStripes) {
    this.funnel = Objects.requireNonNull(funnel, "funnel");
    this.counters = counters;
    this.hashFunctions = hashFunctions;
    this.expectedInsertions = expectedInsertions;
    this.fpp = fpp;
    this.table = table;
    this.gate = new StripedGate(table.words.length, maxStripes);
  }

  /**
   * Creates an empty filter sized for {@code expectedInsertions} items at false-positive probability
   * {@code fpp}: the m and k of {@link BloomFilter#create} for the same arguments, with m counters of
   * 4 bits.
   *
   * @throws IllegalArgumentException if {@code expectedInsertions < 1}, {@code fpp} is not in (0, 1),
   *     -n ln p / (ln 2)^2 is below one counter (as {@link BloomFilter#create}), or the counters would not
   *     fit in the largest {@code long[]} (about 2^35 counters, 16 GiB)
   */
  public static <T> CountingBloomFilter<T> create(Funnel<? super T> funnel, long expectedInsertions,
      double fpp) {
    Objects.requireNonNull(funnel, "funnel");
    long m = Sizing.optimalBits(expectedInsertions, fpp);
    if (m > CounterWords.MAX_COUNTERS) {
      throw new IllegalArgumentException(String.format(
          "expectedInsertions=%d at fpp=%s needs %d counters, past the limit of %d counters (4 bits each,"
              + " %d words of a long[])", expectedInsertions, fpp, m, CounterWords.MAX_COUNTERS, Sizing.MAX_WORDS));
    }
    int k = Sizing.optimalHashFunctions(expectedInsertions, fpp);
    return new CountingBloomFilter<>(funnel, m, k, expectedInsertions, fpp,
        new CounterTable(new long[CounterWords.wordsFor(m)], 0));
  }

  /** A filter of exactly {@code counters} counters and {@code k} probes, for tests; n and p derived. */
  static <T> CountingBloomFilter<T> withShape(Funnel<? super T> funnel, long counters, int k) {
    return withShape(funnel, counters, k, MAX_STRIPES);
  }

  /**
   * {@link #withShape(Funnel, long, int)} with at most {@code maxStripes} stripes (a power of two), for
   * the model checker, whose search is diluted by every stripe a bulk operation enters.
   */
  static <T> CountingBloomFilter<T> withShape(Funnel<? super T> funnel, long counters, int k, int maxStripes) {
    CounterWords.checkShape(counters, k);
    long n = Math.max(1, Math.round(counters * Math.log(2) / k));
    double p = Math.min(0.5, Math.max(Double.MIN_VALUE, Sizing.expectedFpp(counters, k, n)));
    return new CountingBloomFilter<>(funnel, counters, k, n, p,
        new CounterTable(new long[CounterWords.wordsFor(counters)], 0), maxStripes);
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
    CounterProbes p = CounterProbes.hashed(item, funnel).group(counters, hashFunctions);
    int stripe = gate.stripeOf(p.firstWord);
    gate.enterShared(stripe);
    try {
      CounterTable t = table; // read inside the gate: clear and merge replace it only outside
      // Two passes, as StandardLayout.set does: the loads are independent, so their cache misses
      // overlap; the CASes then find their lines cached (one pass would wait for each miss in turn,
      // since a locked instruction lets no later load start before it).
      for (int i = 0; i < p.size; i++) {
        p.seen[i] = AtomicWords.getAcquire(t.words, p.words[i]);
      }
      boolean wasAbsent = false;
      for (int i = 0; i < p.size; i++) {
        wasAbsent |= CounterWords.incrementCas(t.words, p.words[i], p.masks[i], p.seen[i]);
      }
      if (wasAbsent) {
        t.count.increment(); // inside the gate, so that snapshots see words and count agree
      }
      return wasAbsent;
    } finally {
      gate.exitShared(stripe);
    }
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
    CounterProbes p = CounterProbes.hashed(item, funnel).group(counters, hashFunctions);
    int[] words = p.words;
    long[] masks = p.masks;
    int size = p.size;
    // Words ascend, so their stripes do: enter each distinct stripe once, in ascending order.
    int last = -1;
    for (int i = 0; i < size; i++) {
      int s = gate.stripeOf(words[i]);
      if (s != last) {
        gate.enterExclusive(s);
        last = s;
      }
    }
    try {
      CounterTable t = table;
      for (int i = 0; i < size; i++) {
        if (!CounterWords.allNonZero(AtomicWords.getAcquire(t.words, words[i]), masks[i])) {
          return false;
        }
      }
      // No other remove touches these words until we exit, and adds only increase counters: each
      // decrement below finds its counters still above 0 (or stuck) and cannot fail.
      boolean emptied = false;
      for (int i = 0; i < size; i++) {
        emptied |= CounterWords.decrementCas(t.words, words[i], masks[i]);
      }
      if (emptied) {
        t.count.decrement();
      }
      return true;
    } finally {
      last = -1;
      for (int i = 0; i < size; i++) {
        int s = gate.stripeOf(words[i]);
        if (s != last) {
          gate.exitExclusive(s);
          last = s;
        }
      }
    }
  }

  /**
   * Returns false if {@code item} is definitely absent: never added, or removed as often as added; true
   * if it might be present. Takes no lock.
   *
   * @throws NullPointerException if {@code item} is null
   */
  @Override
  public boolean mightContain(T item) {
    long[] positions = CounterProbes.hashed(item, funnel).positions(counters, hashFunctions).positions;
    long[] words = table.words;
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
    gate.enterAllExclusive();
    try {
      table = new CounterTable(new long[table.words.length], 0);
    } finally {
      gate.exitAllExclusive();
    }
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
    if (counters != other.counters || hashFunctions != other.hashFunctions) {
      throw new IllegalArgumentException("cannot merge " + other.shape() + " into " + shape()
          + ": counter count and hash function count must be equal");
    }
    String funnels = Funnels.incompatibility(funnel, other.funnel);
    if (funnels != null) {
      throw new IllegalArgumentException("cannot merge a filter of " + other.funnel + " into one of " + funnel
          + ": " + funnels);
    }
    // Snapshot first and enter our own gate after, so that a.merge(b) and b.merge(a) cannot deadlock.
    Snapshot source = other.snapshot();
    gate.enterAllExclusive();
    try {
      long[] current = table.words;
      long[] merged = new long[current.length];
      for (int w = 0; w < merged.length; w++) {
        merged[w] = CounterWords.saturatingAdd(current[w], source.words[w]);
      }
      table = new CounterTable(merged, BitTable.saturatedSum(table.count(), source.count));
    } finally {
      gate.exitAllExclusive();
    }
  }

  /**
   * True iff {@link #merge} would accept {@code other}: the same number of counters and hash functions
   * (and hash strategy), and funnels not known to write different bytes, by the rule of
   * {@link BloomFilter#isCompatible}.
   */
  public boolean isCompatible(CountingBloomFilter<T> other) {
    Objects.requireNonNull(other, "other");
    return counters == other.counters && hashFunctions == other.hashFunctions
        && Funnels.incompatibility(funnel, other.funnel) == null;
  }

  /** An independent filter with the same shape, counters and count as this one at one instant. */
  public CountingBloomFilter<T> copy() {
    Snapshot s = snapshot();
    return new CountingBloomFilter<>(funnel, counters, hashFunctions, expectedInsertions, fpp,
        new CounterTable(s.words, s.count));
  }

  /**
   * A standard {@link BloomFilter} (standard layout, the same m and k) whose bit i is set iff counter i
   * is non-zero: it answers {@code mightContain} exactly as this filter did at one instant, and its
   * {@link BloomFilter#count()} is this filter's {@link #count()}.
   */
  public BloomFilter<T> toBloomFilter() {
    Snapshot s = snapshot();
    return BloomFilter.loaded(funnel, new StandardLayout(counters, hashFunctions), expectedInsertions, fpp,
        CounterWords.toBits(s.words, counters), s.count);
  }

  /** A copy of the counters and the count with no add or remove in progress. */
  private Snapshot snapshot() {
    gate.enterAllExclusive();
    try {
      CounterTable t = table;
      return new Snapshot(t.words.clone(), t.count());
    } finally {
      gate.exitAllExclusive();
    }
  }

  private record Snapshot(long[] words, long count) {}

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
    return table.count();
  }

  /** The fraction of counters that are non-zero, in [0, 1]. Scans the counters: O(m/16). */
  @Override
  public double fillRatio() {
    return (double) nonZeroCounters() / counters;
  }

  /**
   * An estimate of the current false-positive probability from the X of m counters that are non-zero:
   * (X/m)^k, as for a standard filter of m bits. Read off the counters, it stays right after merges
   * and loads, where {@link #count()} may not. Scans the counters: O(m/16).
   */
  @Override
  public double estimatedFpp() {
    return Sizing.fppFromSetCells(counters, hashFunctions, nonZeroCounters(),
        n -> Sizing.expectedFpp(counters, hashFunctions, n));
  }

  /**
   * An estimate of the number of distinct items present from the number X of non-zero counters
   * (Swamidass and Baldi 2007): -(m/k) ln(1 - X/m); {@code Long.MAX_VALUE} when every counter is
   * non-zero. Scans the counters: O(m/16).
   */
  @Override
  public long approximateElementCount() {
    return Sizing.estimateElements(counters, hashFunctions, nonZeroCounters());
  }

  /**
   * The number of counters stuck at 15 (saturated). Each can cause false positives, never false
   * negatives; many mean the filter holds far more items than it was sized for. Scans: O(m/16).
   */
  public long stuckCounters() {
    long[] words = table.words;
    long n = 0;
    for (int w = 0; w < words.length; w++) {
      n += Long.bitCount(CounterWords.stuckNibbles(AtomicWords.getAcquire(words, w)));
    }
    return n;
  }

  private long nonZeroCounters() {
    long[] words = table.words;
    long n = 0;
    for (int w = 0; w < words.length; w++) {
      n += CounterWords.nonZeroCount(AtomicWords.getAcquire(words, w));
    }
    // The unused nibbles of the last word are always 0 and were counted as zero counters: nothing to fix.
    return n;
  }

  /** The words of the current table, for tests that inspect the counters. */
  long[] currentWords() {
    return table.words;
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
    Snapshot s = snapshot();
    FilterFormat.write(out, new FilterFormat.Header(FilterType.COUNTING, FilterType.COUNTING.strategy(),
        KeyType.of(funnel), counters,
        hashFunctions, expectedInsertions, fpp, s.count), s.words);
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
    CRC32C crc = new CRC32C();
    FilterFormat.Header h = FilterFormat.readHeader(in, crc);
    if (h.type() != FilterType.COUNTING) {
      throw new IOException("filter type " + h.type().id() + " is not a counting filter (type "
          + FilterType.COUNTING.id() + "): read it with " + h.type().reader());
    }
    FilterFormat.checkKeyType(h.keyType(), funnel);
    long m = h.bits();
    int wordCount = CounterWords.wordsFor(m);
    long[] words = FilterFormat.readPayload(in, wordCount, crc);
    int tailCounters = (int) (m & 15);
    if (tailCounters != 0 && (words[wordCount - 1] >>> (4 * tailCounters)) != 0) {
      throw new IOException("counters past m=" + m + " are set in the last word: not a valid filter");
    }
    return new CountingBloomFilter<>(funnel, m, h.hashFunctions(), h.expectedInsertions(), h.fpp(),
        new CounterTable(words, h.count()));
  }

  // ---------------------------------------------------------------- object methods

  private String shape() {
    return "CountingBloomFilter[counters=" + counters + ", hashFunctions=" + hashFunctions + "]";
  }

  @Override
  public String toString() {
    return "CountingBloomFilter[counters=" + counters + ", hashFunctions=" + hashFunctions
        + ", expectedInsertions=" + expectedInsertions + ", fpp=" + fpp + ", count=" + count()
        + ", funnel=" + funnel + "]";
  }
}
