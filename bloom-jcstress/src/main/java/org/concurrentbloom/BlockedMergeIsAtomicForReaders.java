package org.concurrentbloom;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

/**
 * {@link MergeIsAtomicForReaders} on the blocked layout: the other filter holds a and b; actor 2 asks
 * for a, b, then a again while actor 1 merges, and once either was seen both must be.
 *
 * <p>Result: (mightContain(a), mightContain(b), mightContain(a)) in actor 2's order.
 */
@JCStressTest
@Outcome(id = {"false, false, false", "false, false, true", "false, true, true", "true, true, true"},
    expect = ACCEPTABLE, desc = "Absent until the merge, present after it.")
@Outcome(expect = FORBIDDEN, desc = "A reader saw the merge and then an item it brought missing.")
@State
public class BlockedMergeIsAtomicForReaders {
  /** 128 blocks, 1024 words: an in-place, word-by-word merge would take long enough to be caught. */
  static final Layout LAYOUT = JcstressKeys.blocked(1 << 16, 3);

  static final int[] KEYS = JcstressKeys.disjoint(LAYOUT, 2);
  static final int A = KEYS[0];
  static final int B = KEYS[1];

  /** Copied for each state: see {@link JcstressKeys#filter(Layout)}. */
  static final BloomFilter<Integer> EMPTY = JcstressKeys.filter(LAYOUT);

  final BloomFilter<Integer> filter = EMPTY.copy();
  final BloomFilter<Integer> other = EMPTY.copy();

  public BlockedMergeIsAtomicForReaders() {
    other.add(A);
    other.add(B);
  }

  @Actor
  public void actor1() {
    filter.merge(other);
  }

  @Actor
  public void actor2(ZZZ_Result r) {
    r.r1 = filter.mightContain(A);
    r.r2 = filter.mightContain(B);
    r.r3 = filter.mightContain(A);
  }
}
