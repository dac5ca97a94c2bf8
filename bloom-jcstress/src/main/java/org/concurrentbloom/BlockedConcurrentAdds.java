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
 * {@link BloomFilterConcurrentAdds} on the blocked layout: concurrent adds of two different items in
 * the same block never lose each other's bits. The filter is a single 512-bit block with 3 hash
 * functions, and the items are disjoint in their bits but have bits in a common 64-bit word, so the
 * two adds race on one word (and one cache line) and a lost bit would show as a false negative.
 *
 * <p>Result: (add(a), add(b), mightContain(a), mightContain(b)).
 */
@JCStressTest
@Outcome(id = "true, true, true, true", expect = ACCEPTABLE,
    desc = "Both adds changed the filter and both items are present.")
@Outcome(expect = FORBIDDEN, desc = "A lost bit (false negative) or a wrong add result.")
@State
public class BlockedConcurrentAdds {
  static final Layout LAYOUT = JcstressKeys.blocked(512, 3);
  static final int[] KEYS = JcstressKeys.disjointSharingAWord(LAYOUT, 2);

  /** Copied for each state: see {@link JcstressKeys#filter(Layout)}. */
  static final BloomFilter<Integer> EMPTY = JcstressKeys.filter(LAYOUT);

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
