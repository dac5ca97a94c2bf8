package org.concurrentbloom;

import org.openjdk.jcstress.infra.results.ZZZZZ_Result;

/**
 * The state and the two actors' steps of {@link QueryRechecksASealedTable} and
 * {@link BatchQueryRechecksASealedTable}, which differ only in how they ask for a key ({@link #has}):
 * an adder of x, and a reader that seals the first table for a merge of a filter holding z, copies it
 * without swapping (a stalled merger), asks for x twice, finishes the merge with an add of y, and asks
 * once more; the arbiter asks for x and z. One instance per jcstress state.
 */
abstract class SealedMergeRace {
  final BloomFilter<Integer> filter;
  /** The filter's first table, held here so that the reader can seal it as a merge does. */
  final BitTable first;
  /** The merge of a filter holding z into {@link #filter}, made before the actors start. */
  final Transition merge;
  private final int x;
  private final int y;
  private final int z;

  /** {@code keys}: x, y, z, with disjoint bits in {@code layout}; {@code n}: the filter's expected insertions. */
  SealedMergeRace(Layout layout, int[] keys, long n) {
    x = keys[0];
    y = keys[1];
    z = keys[2];
    filter = BloomFilter.empty(Funnels.integerFunnel(), layout, n, layout.expectedFpp(n));
    first = filter.currentTable();
    BloomFilter<Integer> other = JcstressKeys.filter(layout);
    other.add(z);
    merge = Transition.toUnion(first, other.currentWords(), other.count());
  }

  /** The query under test. */
  abstract boolean has(int key);

  final void addX() {
    filter.add(x);
  }

  final void stallMergeAndAsk(ZZZZZ_Result r) {
    if (!first.casSeal(merge)) {
      throw new IllegalStateException("only this actor seals the first table");
    }
    merge.finishCopy(); // the merge's copy; it stalls here, before swapping S in
    r.r1 = has(x);
    r.r2 = has(x);
    filter.add(y); // finds T sealed and finishes the merge: S is the filter's table from now on
    r.r3 = has(x);
  }

  final void askAfter(ZZZZZ_Result r) {
    r.r4 = has(x);
    r.r5 = has(z);
  }
}
