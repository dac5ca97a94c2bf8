package org.concurrentbloom;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

/**
 * A clear appears at one instant to readers. The filter holds a and b; actor 2 asks for a, b, then a
 * again while actor 1 clears. Nothing is added during the race, so the answers can only go from
 * "present" to "absent", and once either was seen absent both must be. Zeroing the words in place one
 * by one would let a reader see one item gone and the other still there: whichever item has the lower
 * first word would vanish first, and the a-b-a order of queries catches either case.
 *
 * <p>Result: (mightContain(a), mightContain(b), mightContain(a)) in actor 2's order.
 */
@JCStressTest
@Outcome(id = {"true, true, true", "true, true, false", "true, false, false", "false, false, false"},
    expect = ACCEPTABLE, desc = "Present until the clear, absent after it.")
@Outcome(expect = FORBIDDEN, desc = "A reader saw the clear and then an item it removed still present.")
@State
public class ClearIsAtomicForReaders {
  /** 1024 words: an in-place, word-by-word clear would take long enough to be caught. */
  static final int BITS = 1 << 16;

  static final int[] KEYS = JcstressKeys.disjoint(BITS, 3, 2);
  static final int A = KEYS[0];
  static final int B = KEYS[1];

  final BloomFilter<Integer> filter = JcstressKeys.filter(BITS, 3);

  public ClearIsAtomicForReaders() {
    filter.add(A);
    filter.add(B);
  }

  @Actor
  public void actor1() {
    filter.clear();
  }

  @Actor
  public void actor2(ZZZ_Result r) {
    r.r1 = filter.mightContain(A);
    r.r2 = filter.mightContain(B);
    r.r3 = filter.mightContain(A);
  }
}
