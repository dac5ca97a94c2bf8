package org.concurrentbloom;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

/**
 * add(x) races clear() on a filter that already holds y. clear() takes effect at one instant: the add
 * is ordered wholly before it (x cleared) or wholly after it (x kept), both fine; y, added before the
 * race, must be gone, however the add's bit-setting interleaves with the clear.
 *
 * <p>Result: (add(x), mightContain(x), mightContain(y)) after both finished. x was never in the filter,
 * so the add returns true on either side of the clear.
 */
@JCStressTest
@Outcome(id = "true, false, false", expect = ACCEPTABLE, desc = "add ordered before clear: both gone.")
@Outcome(id = "true, true, false", expect = ACCEPTABLE, desc = "add ordered after clear: x kept.")
@Outcome(expect = FORBIDDEN, desc = "y survived the clear, or the add of a new item returned false.")
@State
public class AddVersusClear {
  static final int[] KEYS = JcstressKeys.disjoint(64, 3, 2);
  static final int X = KEYS[0];
  static final int Y = KEYS[1];

  final BloomFilter<Integer> filter = JcstressKeys.filter(64, 3);

  public AddVersusClear() {
    filter.add(Y);
  }

  @Actor
  public void actor1(ZZZ_Result r) {
    r.r1 = filter.add(X);
  }

  @Actor
  public void actor2() {
    filter.clear();
  }

  @Arbiter
  public void arbiter(ZZZ_Result r) {
    r.r2 = filter.mightContain(X);
    r.r3 = filter.mightContain(Y);
  }
}
