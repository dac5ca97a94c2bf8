package org.concurrentbloom;

import java.util.BitSet;
import java.util.function.BiPredicate;

/**
 * Items for the counting filter's jcstress tests: pairs of integers whose counters relate in a given way
 * (disjoint, or sharing exactly one counter), found by a deterministic search and kept
 * in static fields, so computed once per JVM. An item's counters are read from a filter it was added
 * to alone; only items with k distinct counters qualify.
 */
final class CountingKeys {
  private CountingKeys() {}

  /** An empty counting filter of {@code counters} counters and {@code k} probes. */
  static CountingBloomFilter<Integer> filter(long counters, int k) {
    return CountingBloomFilter.withShape(Funnels.integerFunnel(), counters, k);
  }

  /** The counters {@code key} uses. */
  static BitSet counters(long counters, int k, int key) {
    CountingBloomFilter<Integer> alone = filter(counters, k);
    alone.add(key);
    long[] words = alone.currentWords();
    BitSet set = new BitSet();
    for (int c = 0; c < counters; c++) {
      if ((words[c / CounterWords.PER_WORD] >>> (4 * (c % CounterWords.PER_WORD)) & 15) != 0) {
        set.set(c);
      }
    }
    return set;
  }

  /** The words holding {@code counters}. */
  static BitSet words(BitSet counters) {
    BitSet words = new BitSet();
    counters.stream().forEach(c -> words.set(c / CounterWords.PER_WORD));
    return words;
  }

  /** The first pair {a, b} (a < b, smallest b first) of non-negative ints for which {@code test} holds. */
  static int[] pair(long counters, int k, BiPredicate<BitSet, BitSet> test) {
    BitSet[] seen = new BitSet[2_000];
    for (int b = 0; b < seen.length; b++) {
      seen[b] = counters(counters, k, b);
      if (seen[b].cardinality() != k) {
        continue;
      }
      for (int a = 0; a < b; a++) {
        if (seen[a].cardinality() == k && test.test(seen[a], seen[b])) {
          return new int[] {a, b};
        }
      }
    }
    throw new IllegalStateException("no pair of keys with the property among the first 2000 ints");
  }

  /** A pair with exactly one common counter. */
  static int[] sharingOneCounter(long counters, int k) {
    return pair(counters, k, (a, b) -> intersection(a, b).cardinality() == 1);
  }

  /**
   * A pair {x, w} with exactly one common counter, which lies in a word above all of x's other counters.
   * An add of x increments its words in ascending order, so there is a moment when it has incremented
   * all of x's own counters and not yet the shared one, which w alone holds at 1.
   */
  static int[] sharingXsLastCounter(long counters, int k) {
    return pair(counters, k, (x, w) -> {
      BitSet shared = intersection(x, w);
      if (shared.cardinality() != 1) {
        return false;
      }
      BitSet own = (BitSet) x.clone();
      own.andNot(shared);
      int sharedWord = shared.nextSetBit(0) / CounterWords.PER_WORD;
      return words(own).length() - 1 < sharedWord;
    });
  }

  static BitSet intersection(BitSet a, BitSet b) {
    BitSet both = (BitSet) a.clone();
    both.and(b);
    return both;
  }
}
