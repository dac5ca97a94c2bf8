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
 * Two adds race the overdue step of {@link ExpiringAddRacesAStep}'s state (current slot 0, clock at
 * t = O + 1.5 s in slot 1): each sees that slot 1 has begun, one claims the step and the other finds it
 * claimed (or both find it done); one whose bits went only into slot 0's generation must help finish
 * the step and redo them in the new one. The items' cells are disjoint and share a
 * word, so the adds also race on that word's CAS.
 *
 * <p>The guarantee: both adds began after the clock showed t and returned before the arbiter's queries,
 * which run at t + W − 1 ms (slot 8, where slot 0's generation is past its time); both must find their
 * item.
 *
 * <p>Result: (add(x), add(y), mightContain(x), mightContain(y)).
 */
@JCStressTest
@Outcome(id = "true, true, true, true", expect = ACCEPTABLE,
    desc = "Both adds were of new items and both items survived until just before t + W.")
@Outcome(expect = FORBIDDEN, desc = "An item lost inside its window (false negative), or a wrong add result.")
@State
public class ExpiringAddsRaceAStep {
  static final int[] KEYS = JcstressKeys.expiringDisjoint(2);
  static final long T = EXPIRING_ORIGIN + 1_500;

  final JcstressClock clock = new JcstressClock(EXPIRING_ORIGIN);
  final ExpiringBloomFilter<Integer> filter = JcstressKeys.expiring(clock);

  public ExpiringAddsRaceAStep() {
    clock.set(T);
  }

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
    clock.set(T + EXPIRING_WINDOW - 1);
    r.r3 = filter.mightContain(KEYS[0]);
    r.r4 = filter.mightContain(KEYS[1]);
  }
}
