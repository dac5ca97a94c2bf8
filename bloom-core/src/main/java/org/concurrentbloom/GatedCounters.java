package org.concurrentbloom;

/**
 * The counters of a {@link CountingBloomFilter} behind the striped gate that keeps removes and bulk
 * operations from seeing, or making, half an operation. The filter hashes and groups an item's counters
 * ({@link CounterProbes}); this class changes them.
 *
 * <p>Any thread may call any method; a {@link CounterProbes} argument is the calling thread's own.
 */
final class GatedCounters {
  /*
   * Counters. m counters of 4 bits, 16 to a long (CounterWords); m and k are the standard filter's for
   * (n, p) (Sizing). Fan et al. bound the probability that any counter reaches 16, with k = (m/n) ln 2, by
   * 1.37e-15 m, so 4 bits suffice; but an adversary or an overfilled filter can still get there.
   * So a counter that reaches 15 is stuck: it is never incremented (its true count may exceed 15), never
   * decremented (a decrement of an undercounted counter could reach 0 while an item still uses it: a false
   * negative) and a merge never moves it. A stuck counter can only cause false positives. A remove of an
   * item with a stuck counter decrements its other counters, each of which the item did increment, and
   * leaves the stuck one at 15 > 0: every other item keeps all its counters above 0.
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
  static final int MAX_STRIPES = 256;

  private final StripedGate gate;
  /** Read by anyone; written only by clear and merge, which hold every stripe exclusively. */
  private volatile CounterTable table;

  /** Counters over {@code table}, behind a gate of at most {@code maxStripes} (a power of two) stripes. */
  GatedCounters(CounterTable table, int maxStripes) {
    this.table = table;
    this.gate = new StripedGate(table.words.length, maxStripes);
  }

  /** The counters and count with no add or remove in progress: what every snapshot copies. */
  record Snapshot(long[] words, long count) {}

  /** The current words (volatile read): what a reader asks, taking nothing. */
  long[] words() {
    return table.words;
  }

  long count() {
    return table.count();
  }

  /** Increments the grouped counters of {@code p}; true iff one of them was 0. */
  boolean add(CounterProbes p) {
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

  /** Decrements the grouped counters of {@code p} if all are above 0, atomically; false if one is 0. */
  boolean remove(CounterProbes p) {
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

  /** Publishes empty counters at one instant. */
  void clear() {
    gate.enterAllExclusive();
    try {
      table = new CounterTable(new long[table.words.length], 0);
    } finally {
      gate.exitAllExclusive();
    }
  }

  /**
   * Publishes the saturating sum of these counters and {@code source}'s at one instant. The caller takes
   * {@code source} before calling, never while inside this gate, so that a.merge(b) and b.merge(a)
   * cannot deadlock.
   */
  void merge(Snapshot source) {
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

  /** A copy of the counters and the count with no add or remove in progress. */
  Snapshot snapshot() {
    gate.enterAllExclusive();
    try {
      CounterTable t = table;
      return new Snapshot(t.words.clone(), t.count());
    } finally {
      gate.exitAllExclusive();
    }
  }

  /** Counters that are not 0: the unused nibbles of the last word are 0, so they need no correction. */
  long nonZeroCounters() {
    long[] words = table.words;
    long n = 0;
    for (int w = 0; w < words.length; w++) {
      n += CounterWords.nonZeroCount(AtomicWords.getAcquire(words, w));
    }
    return n;
  }

  /** Counters stuck at 15. */
  long stuckCounters() {
    long[] words = table.words;
    long n = 0;
    for (int w = 0; w < words.length; w++) {
      n += Long.bitCount(CounterWords.stuckNibbles(AtomicWords.getAcquire(words, w)));
    }
    return n;
  }
}
