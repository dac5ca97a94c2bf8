package org.concurrentbloom;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

/**
 * A merge appears at one instant to readers. The other filter holds a and b; actor 2 asks for a, b,
 * then a again while actor 1 merges. Since nothing is ever removed and a and b only arrive together,
 * the answers can only go from "absent" to "present", and once either was seen both must be. A merge
 * done word by word in place would let a reader see one item merged and the other not yet: whichever
 * item's last word comes first would appear first, and the a-b-a order of queries catches either case.
 *
 * <p>Result: (mightContain(a), mightContain(b), mightContain(a)) in actor 2's order.
 */
@JCStressTest
@Outcome(id = {"false, false, false", "false, false, true", "false, true, true", "true, true, true"},
    expect = ACCEPTABLE, desc = "Absent until the merge, present after it.")
@Outcome(expect = FORBIDDEN, desc = "A reader saw the merge and then an item it brought missing.")
@State
public class MergeIsAtomicForReaders {
  /** 1024 words: an in-place, word-by-word merge would take long enough to be caught. */
  static final int BITS = 1 << 16;

  static final int[] KEYS = JcstressKeys.disjoint(BITS, 3, 2);
  static final int A = KEYS[0];
  static final int B = KEYS[1];

  final BloomFilter<Integer> filter = JcstressKeys.filter(BITS, 3);
  final BloomFilter<Integer> other = JcstressKeys.filter(BITS, 3);

  public MergeIsAtomicForReaders() {
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
