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
 * {@link AddVersusMerge} on the blocked layout: merge() never loses an add that overlaps it. One
 * 512-bit block holds x, y and z, so the add's compare-and-exchanges and the merge's copy hit the same
 * eight words. The filter holds y, the other filter z; actor 1 adds x while actor 2 merges, and x, y
 * and z must all be present afterwards.
 *
 * <p>Result: (add(x), mightContain(x), mightContain(y), mightContain(z)).
 */
@JCStressTest
@Outcome(id = "true, true, true, true", expect = ACCEPTABLE, desc = "Nothing lost.")
@Outcome(expect = FORBIDDEN, desc = "The merge lost the concurrent add, the old content or the other's.")
@State
public class BlockedAddVersusMerge {
  static final Layout LAYOUT = JcstressKeys.blocked(512, 3);
  static final int[] KEYS = JcstressKeys.disjoint(LAYOUT, 3);
  static final int X = KEYS[0];
  static final int Y = KEYS[1];
  static final int Z = KEYS[2];

  /** Copied for each state: see {@link JcstressKeys#filter(Layout)}. */
  static final BloomFilter<Integer> EMPTY = JcstressKeys.filter(LAYOUT);

  final BloomFilter<Integer> filter = EMPTY.copy();
  final BloomFilter<Integer> other = EMPTY.copy();

  public BlockedAddVersusMerge() {
    filter.add(Y);
    other.add(Z);
  }

  @Actor
  public void actor1(ZZZZ_Result r) {
    r.r1 = filter.add(X);
  }

  @Actor
  public void actor2() {
    filter.merge(other);
  }

  @Arbiter
  public void arbiter(ZZZZ_Result r) {
    r.r2 = filter.mightContain(X);
    r.r3 = filter.mightContain(Y);
    r.r4 = filter.mightContain(Z);
  }
}
