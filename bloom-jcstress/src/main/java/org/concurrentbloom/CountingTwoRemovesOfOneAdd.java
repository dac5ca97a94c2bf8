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
 * Two removes race for one add. x was added once, and w, which shares one counter with x, once. Exactly
 * one remove of x may succeed; afterwards x is absent (its other two counters are 0) and w present.
 * Removes that checked and decremented without excluding each other could both succeed, or one could
 * take w's shared counter to 0 on its way to failing.
 *
 * <p>Result: (remove(x) of actor 1, remove(x) of actor 2, then mightContain(x), mightContain(w)).
 */
@JCStressTest
@Outcome(id = {"true, false, false, true", "false, true, false, true"}, expect = ACCEPTABLE,
    desc = "One remove took the only copy; w is untouched.")
@Outcome(id = {"true, true, false, true", "true, true, false, false"}, expect = FORBIDDEN,
    desc = "Both removes succeeded for one add.")
@Outcome(expect = FORBIDDEN, desc = "No remove succeeded, x is still present, or w was lost.")
@State
public class CountingTwoRemovesOfOneAdd {
  static final int[] KEYS = CountingKeys.sharingOneCounter(64, 3);
  static final int X = KEYS[0];
  static final int W = KEYS[1];

  final CountingBloomFilter<Integer> filter = CountingKeys.filter(64, 3);

  public CountingTwoRemovesOfOneAdd() {
    filter.add(X);
    filter.add(W);
  }

  @Actor
  public void actor1(ZZZZ_Result r) {
    r.r1 = filter.remove(X);
  }

  @Actor
  public void actor2(ZZZZ_Result r) {
    r.r2 = filter.remove(X);
  }

  @Arbiter
  public void arbiter(ZZZZ_Result r) {
    r.r3 = filter.mightContain(X);
    r.r4 = filter.mightContain(W);
  }
}
