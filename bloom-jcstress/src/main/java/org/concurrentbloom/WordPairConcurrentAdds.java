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
 * Two threads add two different items to a filter of hash strategy 6 (two words per item, set with one
 * compare-and-exchange each), the default of new blocked filters, made by the public builder: 10
 * expected insertions at 10% give a single 512-bit block (checked when the class loads). The items are
 * disjoint in their bits but share a 64-bit word, so their atomic ORs race on it; a plain
 * {@code words[w] |= mask} would lose one of them now and then (PlainLongArrayLosesBits), which would
 * show here as a false negative.
 *
 * <p>Result: (add(a), add(b), mightContain(a), mightContain(b)).
 */
@JCStressTest
@Outcome(id = "true, true, true, true", expect = ACCEPTABLE,
    desc = "Both adds changed the filter and both items are present.")
@Outcome(expect = FORBIDDEN, desc = "A lost bit (false negative) or a wrong add result.")
@State
public class WordPairConcurrentAdds {
  /** Copied for each state: see {@link JcstressKeys#filter(Layout)}. */
  static final BloomFilter<Integer> EMPTY =
      JcstressKeys.built(10, 0.1, true, BlockedLayout.BLOCK_BITS, HashStrategy.XXH3_64_WORD_PAIR);
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
