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
 * {@link BloomFilterConcurrentAdds} on a filter of hash strategy 4 (XXH3-64), the default of new
 * standard filters, made by the public builder: 10 expected insertions at 10% give one 64-bit word
 * (checked when the class loads), so the two items' disjoint bits share that word and the adds race on
 * it. A lost bit would show as a false negative.
 *
 * <p>Result: (add(a), add(b), mightContain(a), mightContain(b)).
 */
@JCStressTest
@Outcome(id = "true, true, true, true", expect = ACCEPTABLE,
    desc = "Both adds changed the filter and both items are present.")
@Outcome(expect = FORBIDDEN, desc = "A lost bit (false negative) or a wrong add result.")
@State
public class Xxh3ConcurrentAdds {
  /** Copied for each state, as {@link BlockedConcurrentAdds} does. */
  static final BloomFilter<Integer> EMPTY =
      JcstressKeys.built(10, 0.1, false, 64, HashStrategy.XXH3_64_ENHANCED_DOUBLE);
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
