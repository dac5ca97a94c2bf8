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
 * Concurrent adds of different items never lose each other's bits. The filter has 64 bits and 3 hash
 * functions, so all six bits of the two items live in one word and every add races with the other on
 * it. The items' bits are disjoint, so neither can be found through the other's bits: a lost bit would
 * show as a false negative.
 *
 * <p>Result: (add(a), add(b), mightContain(a), mightContain(b)). Each add turns on bits nobody else
 * sets, so both return true, and both items are present afterwards.
 */
@JCStressTest
@Outcome(id = "true, true, true, true", expect = ACCEPTABLE,
    desc = "Both adds changed the filter and both items are present.")
@Outcome(expect = FORBIDDEN, desc = "A lost bit (false negative) or a wrong add result.")
@State
public class BloomFilterConcurrentAdds {
  static final int[] KEYS = JcstressKeys.disjoint(64, 3, 2);

  final BloomFilter<Integer> filter = JcstressKeys.filter(64, 3);

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
