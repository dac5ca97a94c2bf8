package org.concurrentbloom;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * {@link WordPairConcurrentAdds} through the batch path: two threads {@code addAll(long[])} two keys
 * each into one 512-bit block of hash strategy 6. A batch reads all its words first and then sets each
 * with a compare-and-exchange from the value it read, which may be stale by then: the CAS must fail on
 * the other thread's bits and retry, never write the stale value back. The four keys have disjoint bits
 * and share words, so a lost bit shows as a key missing or a count below 2.
 *
 * <p>Result: (actor 1's addAll, actor 2's addAll, how many of the four keys are present afterwards).
 */
@JCStressTest
@Outcome(id = "2, 2, 4", expect = ACCEPTABLE, desc = "Every add changed the filter and every key is present.")
@Outcome(expect = FORBIDDEN, desc = "A lost bit (false negative) or a wrong count.")
@State
public class WordPairBatchAdds {
  /** Copied for each state (building a blocked filter sums its FPR model; copying is 20 ns). */
  static final BloomFilter<Long> EMPTY = BloomFilter.builder(Funnels.longFunnel()).expectedInsertions(10)
      .fpp(0.1).blocked().build();
  static final long[] KEYS;

  static {
    if (EMPTY.hashStrategy() != HashStrategy.XXH3_64_WORD_PAIR || EMPTY.bitSize() != BlockedLayout.BLOCK_BITS) {
      throw new IllegalStateException("expected one block of strategy 6, built " + EMPTY);
    }
    KEYS = JcstressKeys.longsSharingAWord(EMPTY, 4);
  }

  final BloomFilter<Long> filter = EMPTY.copy();

  @Actor
  public void actor1(III_Result r) {
    r.r1 = filter.addAll(new long[] {KEYS[0], KEYS[2]});
  }

  @Actor
  public void actor2(III_Result r) {
    r.r2 = filter.addAll(new long[] {KEYS[1], KEYS[3]});
  }

  @Arbiter
  public void arbiter(III_Result r) {
    int present = 0;
    for (boolean b : filter.mightContainAll(KEYS)) {
      present += b ? 1 : 0;
    }
    r.r3 = present;
  }
}
