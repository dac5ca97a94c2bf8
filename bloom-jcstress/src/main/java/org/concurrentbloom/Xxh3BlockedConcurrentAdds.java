package org.concurrentbloom;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZZ_Result;

/**
 * {@link BlockedConcurrentAdds} on a filter of hash strategy 5 (XXH3-64), the blocked default before
 * strategy 6 and still below p = 0.001, made by the public builder: 10 expected insertions at 10% give a single 512-bit block
 * (checked when the class loads). The two items are disjoint in their bits but have bits in a common
 * 64-bit word, so the adds race on that word, and a lost bit would show as a false negative.
 *
 * <p>Result: (add(a), add(b), mightContain(a), mightContain(b)).
 */
@JCStressTest
@Outcome(id = "true, true, true, true", expect = ACCEPTABLE,
    desc = "Both adds changed the filter and both items are present.")
@Outcome(expect = FORBIDDEN, desc = "A lost bit (false negative) or a wrong add result.")
@State
public class Xxh3BlockedConcurrentAdds {
  /** Copied for each state: see {@link JcstressKeys#filter(Layout)}. */
  static final BloomFilter<Integer> EMPTY =
      JcstressKeys.blockedWith(10, 0.1, BlockedLayout.BLOCK_BITS, HashStrategy.XXH3_64_BLOCKED);
  static final int[] KEYS = JcstressKeys.disjointSharingAWord(EMPTY.layout(), 2);

  final BloomFilter<Integer> filter = EMPTY.copy();

  @Actor
  public void actor1(ZZZZ_Result r) {
    r.r1 = filter.add(KEYS[0]);
  }

  @Actor
  public void actor2(ZZZZ_Result r) {
    r.r2 = filter.add(KEYS[1]);
  }

  @Arbiter
  public void arbiter(ZZZZ_Result r) {
    r.r3 = filter.mightContain(KEYS[0]);
    r.r4 = filter.mightContain(KEYS[1]);
  }
}
