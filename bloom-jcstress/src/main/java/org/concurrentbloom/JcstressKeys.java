package org.concurrentbloom;

import java.util.BitSet;
import java.util.function.LongFunction;

/**
 * Items for the filter-level jcstress tests: integers whose probe bits are pairwise disjoint in a
 * filter of a given layout, so that no item can be reported present by another item's bits (a false
 * positive would make a lost bit invisible). A candidate is taken if, added alone to an empty filter,
 * it sets k distinct bits, none of which an item taken before sets. Deterministic, and computed once
 * per JVM (the tests keep the keys in static fields).
 */
final class JcstressKeys {
  private JcstressKeys() {}

  /** The first {@code count} non-negative ints pairwise disjoint in a standard (bits, k) filter. */
  static int[] disjoint(long bits, int k, int count) {
    return disjoint(new StandardLayout(bits, k), count);
  }

  /** The first {@code count} non-negative ints that are pairwise disjoint in {@code layout}. */
  static int[] disjoint(Layout layout, int count) {
    return find(layout, count, false);
  }

  /**
   * Like {@link #disjoint(Layout, int)}, but each int after the first must also have a bit in a 64-bit
   * word where the first has one, so that their adds race on that word.
   */
  static int[] disjointSharingAWord(Layout layout, int count) {
    return find(layout, count, true);
  }

  /** An empty standard filter of {@code bits} bits and {@code k} hash functions. */
  static BloomFilter<Integer> filter(long bits, int k) {
    return filter(new StandardLayout(bits, k));
  }

  /**
   * An empty filter of {@code layout}. Creating a blocked filter this way costs about 13 us (it sums the
   * layout's Poisson model for the filter's nominal fpp), some 200 times a standard one and more than a
   * whole sample of a test, and jcstress creates a state object per sample; so the blocked tests create
   * one empty filter per JVM and give each state a {@link BloomFilter#copy()} of it (20 ns).
   */
  static BloomFilter<Integer> filter(Layout layout) {
    return BloomFilter.withLayout(Funnels.integerFunnel(), layout);
  }

  /**
   * An empty filter made by the public builder with its defaults for {@code expectedInsertions} and
   * {@code fpp}, blocked or standard, checked to have {@code bits} bits and {@code strategy}: for the
   * tests of the strategies new filters get (4, and 6 for blocked ones), which {@code new StandardLayout(bits, k)} and
   * {@link #blocked} (strategies 1 and 2) do not make.
   */
  static BloomFilter<Integer> built(long expectedInsertions, double fpp, boolean blocked, long bits,
      HashStrategy strategy) {
    BloomFilter.Builder<Integer> b = BloomFilter.builder(Funnels.integerFunnel())
        .expectedInsertions(expectedInsertions).fpp(fpp);
    BloomFilter<Integer> f = blocked ? b.blocked().build() : b.build();
    if (f.bitSize() != bits || f.hashStrategy() != strategy) {
      throw new IllegalStateException("expected " + bits + " bits of " + strategy + ", built " + f);
    }
    return f;
  }

  /**
   * As {@link #built}, blocked, with {@code strategy} asked for by name: for strategy 5, which new
   * blocked filters get by default only below p = 0.001.
   */
  static BloomFilter<Integer> blockedWith(long expectedInsertions, double fpp, long bits, HashStrategy strategy) {
    BloomFilter<Integer> f = BloomFilter.builder(Funnels.integerFunnel()).expectedInsertions(expectedInsertions)
        .fpp(fpp).blocked().hashStrategy(strategy).build();
    if (f.bitSize() != bits || f.hashStrategy() != strategy) {
      throw new IllegalStateException("expected " + bits + " bits of " + strategy + ", built " + f);
    }
    return f;
  }

  /** A blocked layout; {@code bits} a multiple of 512. With 512 bits, every item is in the one block. */
  static Layout blocked(long bits, int k) {
    return new BlockedLayout(bits, k);
  }

  // ---------------------------------------------------------------- expiring filters

  /** The clock time the expiring tests build their filters at: slot i is [ORIGIN + i·s, ORIGIN + (i+1)·s). */
  static final long EXPIRING_ORIGIN = 1_000_000;
  /** W of the expiring tests' filters: 7 s, so that with 8 generations a slot lasts s = 1 s. */
  static final long EXPIRING_WINDOW = 7_000;
  static final long EXPIRING_SLOT = 1_000;

  /**
   * An empty {@link ExpiringBloomFilter} made by the public builder on {@code clock}: W = 7 s, 8
   * generations (s = 1 s, maxRetention 8 s), 7 items per window at 10%, which gives one item per slot
   * and generations of 64 cells with 6 probes, 8 cells to a word: 8 words in all, so that different
   * items' adds race on shared words. Checked here; slot 0 begins at the clock's time.
   */
  static ExpiringBloomFilter<Integer> expiring(JcstressClock clock) {
    ExpiringBloomFilter<Integer> f = ExpiringBloomFilter.builder(Funnels.integerFunnel())
        .window(java.time.Duration.ofMillis(EXPIRING_WINDOW)).expectedInsertionsPerWindow(7).fpp(0.1)
        .clock(clock).generations(8).build();
    if (f.bitsPerGeneration() != 64 || f.hashFunctions() != 6 || f.generationSpan().toMillis() != EXPIRING_SLOT) {
      throw new IllegalStateException("expected 8 generations of 64 bits, k = 6, s = 1 s; built " + f);
    }
    return f;
  }

  /**
   * The first {@code count} non-negative ints whose cells are pairwise disjoint in {@link #expiring}'s
   * generations (cell c is the same cell in every generation, so no item is covered by the others in
   * any generation or any union of them), each int after the first sharing a word with the first.
   */
  static int[] expiringDisjoint(int count) {
    return ints(search(key -> expiringBits((int) key), 6, count, true, "the expiring filter"));
  }

  /** The bits {@code key} sets in the interleaved words of an empty {@link #expiring} filter (generation 0). */
  private static BitSet expiringBits(int key) {
    JcstressClock clock = new JcstressClock(EXPIRING_ORIGIN);
    ExpiringBloomFilter<Integer> shape = expiring(clock);
    ExpiringPlan plan = new ExpiringPlan(shape.expectedInsertions(), shape.fpp(), EXPIRING_WINDOW,
        shape.generationCount());
    ExpiringGenerations gens = ExpiringGenerations.empty(plan, clock);
    new ExpiringBloomFilter<Integer>(Funnels.integerFunnel(), gens, clock).add(key);
    return BitSet.valueOf(gens.bits.words);
  }

  /**
   * {@code count} long keys of {@code empty}'s shape (a long-key filter) with disjoint bits, each sharing
   * a word with the first key's words: what {@link #disjointSharingAWord} is for {@code addLong} and
   * {@code addAll(long[])}.
   */
  static long[] longsSharingAWord(BloomFilter<Long> empty, int count) {
    return search(key -> {
      BloomFilter<Long> alone = empty.copy();
      alone.addLong(key);
      return BitSet.valueOf(alone.currentWords());
    }, empty.hashFunctions(), count, true, empty.toString());
  }

  private static int[] find(Layout layout, int count, boolean shareAWordWithFirst) {
    return ints(search(key -> probeBits(layout, (int) key), layout.hashFunctions, count, shareAWordWithFirst,
        layout.shape()));
  }

  /**
   * The first {@code count} keys from 0 up whose bits ({@code bitsOf}) number k (no two of a key's own
   * probes coincide) and are disjoint from those of the keys chosen before; with
   * {@code shareAWordWithFirst}, each key after the first also shares a 64-bit word with the first.
   * Tries the first million keys, then throws naming {@code what}.
   */
  private static long[] search(LongFunction<BitSet> bitsOf, int k, int count, boolean shareAWordWithFirst,
      String what) {
    long[] chosen = new long[count];
    BitSet taken = new BitSet();
    BitSet firstWords = null;
    int found = 0;
    for (long candidate = 0; found < count; candidate++) {
      if (candidate > 1_000_000) {
        throw new IllegalStateException("no " + count + " disjoint keys"
            + (shareAWordWithFirst ? " sharing a word" : "") + " for " + what);
      }
      BitSet bits = bitsOf.apply(candidate);
      if (bits.cardinality() != k || bits.intersects(taken)) {
        continue; // two of its own probes coincide, or it shares a bit with a key taken before
      }
      BitSet words = wordsOf(bits);
      if (shareAWordWithFirst && firstWords != null && !words.intersects(firstWords)) {
        continue;
      }
      if (firstWords == null) {
        firstWords = words;
      }
      taken.or(bits);
      chosen[found++] = candidate;
    }
    return chosen;
  }

  private static int[] ints(long[] keys) {
    int[] ints = new int[keys.length];
    for (int i = 0; i < keys.length; i++) {
      ints[i] = (int) keys[i];
    }
    return ints;
  }

  /** The bits {@code key} sets in an empty filter of {@code layout}. */
  private static BitSet probeBits(Layout layout, int key) {
    BloomFilter<Integer> alone = filter(layout);
    alone.add(key);
    return BitSet.valueOf(alone.currentWords());
  }

  private static BitSet wordsOf(BitSet bits) {
    BitSet words = new BitSet();
    bits.stream().forEach(bit -> words.set(bit >>> 6));
    return words;
  }
}
