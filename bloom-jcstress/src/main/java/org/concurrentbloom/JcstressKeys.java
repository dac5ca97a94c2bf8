package org.concurrentbloom;

/**
 * Items for the filter-level jcstress tests: integers whose probe bits are pairwise disjoint in a
 * filter of a given shape, so that no item can be reported present by another item's bits (a false
 * positive would make a lost bit invisible). Found with the public API only: a candidate is taken if
 * adding it turns on exactly k new bits. Deterministic, and computed once per JVM.
 */
final class JcstressKeys {
  private JcstressKeys() {}

  /** The first {@code count} non-negative ints that are pairwise disjoint in a (bits, k) filter. */
  static int[] disjoint(long bits, int k, int count) {
    int[] chosen = new int[count];
    BloomFilter<Integer> union = filter(bits, k);
    long unionBits = 0;
    int found = 0;
    for (int candidate = 0; found < count; candidate++) {
      if (candidate > 1_000_000) {
        throw new IllegalStateException("no " + count + " disjoint keys for m=" + bits + ", k=" + k);
      }
      BloomFilter<Integer> alone = filter(bits, k);
      alone.add(candidate);
      if (setBits(alone) != k) {
        continue; // two of its own probes coincide
      }
      BloomFilter<Integer> trial = union.copy();
      trial.add(candidate);
      long trialBits = setBits(trial);
      if (trialBits == unionBits + k) {
        union = trial;
        unionBits = trialBits;
        chosen[found++] = candidate;
      }
    }
    return chosen;
  }

  static BloomFilter<Integer> filter(long bits, int k) {
    return BloomFilter.withShape(Funnels.integerFunnel(), bits, k);
  }

  private static long setBits(BloomFilter<Integer> f) {
    return Math.round(f.fillRatio() * f.bitSize());
  }
}
