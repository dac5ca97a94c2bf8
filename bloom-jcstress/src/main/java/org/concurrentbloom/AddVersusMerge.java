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
 * merge() never loses an add that overlaps it. The filter holds y; the other filter holds z; actor 1
 * adds x while actor 2 merges. The merge builds a new bit array from the old one and swaps it in, so
 * an add whose bits went into the old array after the merge copied it must set them again in the new
 * one: x, y and z must all be present afterwards, whichever side of the merge the add falls on.
 *
 * <p>Result: (add(x), mightContain(x), mightContain(y), mightContain(z)).
 */
@JCStressTest
@Outcome(id = "true, true, true, true", expect = ACCEPTABLE, desc = "Nothing lost.")
@Outcome(expect = FORBIDDEN, desc = "The merge lost the concurrent add, the old content or the other's.")
@State
public class AddVersusMerge {
  static final int[] KEYS = JcstressKeys.disjoint(64, 3, 3);
  static final int X = KEYS[0];
  static final int Y = KEYS[1];
  static final int Z = KEYS[2];

  final BloomFilter<Integer> filter = JcstressKeys.filter(64, 3);
  final BloomFilter<Integer> other = JcstressKeys.filter(64, 3);

  public AddVersusMerge() {
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
