package org.concurrentbloom;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

/**
 * A counting merge appears at one instant to readers, as {@link MergeIsAtomicForReaders} checks for the
 * standard filter (same a-b-a queries, same reasoning): the other filter holds a and b, actor 2 asks for
 * a, b, a while actor 1 merges. A merge that added the counters in place, word by word, would show one
 * item before the other.
 *
 * <p>Result: (mightContain(a), mightContain(b), mightContain(a)) in actor 2's order.
 */
@JCStressTest
@Outcome(id = {"false, false, false", "false, false, true", "false, true, true", "true, true, true"},
    expect = ACCEPTABLE, desc = "Absent until the merge, present after it.")
@Outcome(expect = FORBIDDEN, desc = "A reader saw the merge and then an item it brought missing.")
@State
public class CountingMergeIsAtomicForReaders {
  /** 4096 words: an in-place, word-by-word merge would take long enough to be caught. */
  static final int COUNTERS = 1 << 16;

  static final int[] KEYS = CountingKeys.pair(COUNTERS, 3, (a, b) -> !a.intersects(b));
  static final int A = KEYS[0];
  static final int B = KEYS[1];

  final CountingBloomFilter<Integer> filter = CountingKeys.filter(COUNTERS, 3);
  final CountingBloomFilter<Integer> other = CountingKeys.filter(COUNTERS, 3);

  public CountingMergeIsAtomicForReaders() {
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
