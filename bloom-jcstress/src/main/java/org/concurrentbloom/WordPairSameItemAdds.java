package org.concurrentbloom;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

/**
 * {@link BloomFilterSameItemAdds} through the primitive path on a filter of hash strategy 6: two
 * threads {@code addLong} the same new key. Each word is set with a compare-and-exchange, so exactly one
 * add per word installs the item's bits there (the other's CAS fails and finds them set); at least one
 * add must return true, and the key must be present afterwards.
 *
 * <p>Result: (actor 1's addLong, actor 2's addLong, mightContainLong afterwards).
 */
@JCStressTest
@Outcome(id = {"true, false, true", "false, true, true"}, expect = ACCEPTABLE,
    desc = "One add set both words' bits before the other looked.")
@Outcome(id = "true, true, true", expect = ACCEPTABLE_INTERESTING,
    desc = "Each add turned on one of the two words first: both report a change (documented).")
@Outcome(expect = FORBIDDEN, desc = "Nobody reports the change of an absent key, or it is missing.")
@State
public class WordPairSameItemAdds {
  /** Copied for each state (building a blocked filter sums its FPR model; copying is 20 ns). */
  static final BloomFilter<Long> EMPTY = BloomFilter.builder(Funnels.longFunnel()).expectedInsertions(10)
      .fpp(0.1).blocked().build();
  static final long KEY = 42;

  static {
    if (EMPTY.hashStrategy() != HashStrategy.XXH3_64_WORD_PAIR) {
      throw new IllegalStateException("expected strategy 6, built " + EMPTY);
    }
  }

  final BloomFilter<Long> filter = EMPTY.copy();

  @Actor
  public void actor1(ZZZ_Result r) {
    r.r1 = filter.addLong(KEY);
  }

  @Actor
  public void actor2(ZZZ_Result r) {
    r.r2 = filter.addLong(KEY);
  }

  @Arbiter
  public void arbiter(ZZZ_Result r) {
    r.r3 = filter.mightContainLong(KEY);
  }
}
