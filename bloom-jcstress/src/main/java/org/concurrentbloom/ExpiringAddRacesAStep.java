package org.concurrentbloom;

import static org.concurrentbloom.JcstressKeys.EXPIRING_ORIGIN;
import static org.concurrentbloom.JcstressKeys.EXPIRING_WINDOW;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZZ_Result;

/**
 * An add of x races the step that another thread runs, on an {@link ExpiringBloomFilter} (W = 7 s, 8
 * generations, s = 1 s; see {@link JcstressKeys#expiring}) whose step is overdue: it was built at
 * origin O and the clock then set to t = O + 1.5 s, the middle of slot 1, with no operation since, so
 * the current slot is still 0 and adds still go to slot 0's generation. Actor 2 moves the clock on to
 * O + 2.5 s (slot 2) and queries y, which runs the step from slot 0 to slot 2.
 *
 * <p>The guarantee: t was on the clock before add(x) began and the add returned before the arbiter's
 * query, so a query whose clock reads below t + W must find x. The arbiter sets the clock to
 * t + W − 1 ms = O + 8.499 s, in slot 8, where slot 0's generation is past its time: if the add put its
 * bits into slot 0's generation (it read the state before the step) and did not redo them in the new
 * current generation (helping to finish the step first if actor 2 had claimed it), x is lost.
 *
 * <p>Result: (add(x), mightContain(y) by actor 2, mightContain(x) and mightContain(y) by the arbiter).
 * The three items' cells are pairwise disjoint, so no answer can come from another item's bits.
 */
@JCStressTest
@Outcome(id = "true, false, true, false", expect = ACCEPTABLE,
    desc = "x was new, y never added; x found just before t + W.")
@Outcome(expect = FORBIDDEN, desc = "x lost inside its window (false negative), or a wrong add or query result.")
@State
public class ExpiringAddRacesAStep {
  static final int[] KEYS = JcstressKeys.expiringDisjoint(2);
  static final long T = EXPIRING_ORIGIN + 1_500;

  final JcstressClock clock = new JcstressClock(EXPIRING_ORIGIN);
  final ExpiringBloomFilter<Integer> filter = JcstressKeys.expiring(clock);

  public ExpiringAddRacesAStep() {
    clock.set(T);
  }

  @Actor
  public void actor1(ZZZZ_Result r) {
    r.r1 = filter.add(KEYS[0]);
  }

  @Actor
  public void actor2(ZZZZ_Result r) {
    clock.set(EXPIRING_ORIGIN + 2_500);
    r.r2 = filter.mightContain(KEYS[1]);
  }

  @Arbiter
  public void arbiter(ZZZZ_Result r) {
    clock.set(T + EXPIRING_WINDOW - 1);
    r.r3 = filter.mightContain(KEYS[0]);
    r.r4 = filter.mightContain(KEYS[1]);
  }
}
