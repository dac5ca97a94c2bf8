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
import org.openjdk.jcstress.infra.results.ZZZZZZ_Result;

/**
 * Two adds race a long jump of the clock on an empty {@link ExpiringBloomFilter} ({@link
 * JcstressKeys#expiring}: W = 7 s, s = 1 s, 8 generations): built at O, the clock then set to
 * t = O + 70.5 s, ten windows on (slot 70), with no operation since. The first add to see it claims the
 * catch-up from slot 0 to 70, which clears every generation, slot 0's too, into which both adds may
 * already have written; each add's reading is far past what slot 0's generation covers, so each must
 * help finish the catch-up (or find it done) and redo itself in the new current generation.
 *
 * <p>The guarantee: both adds began after the clock showed t and returned before the arbiter's queries,
 * so queries at t (the new time) and at t + W − 1 ms must find both items.
 *
 * <p>Result: (add(x), add(y), x and y at t, x and y at t + W − 1 ms).
 */
@JCStressTest
@Outcome(id = "true, true, true, true, true, true", expect = ACCEPTABLE,
    desc = "Both adds were new and both items are found at the new time and just before t + W.")
@Outcome(expect = FORBIDDEN, desc = "An item lost inside its window (false negative), or a wrong add result.")
@State
public class ExpiringAddRacesALongJump {
  static final int[] KEYS = JcstressKeys.expiringDisjoint(2);
  static final long T = EXPIRING_ORIGIN + 70_500;

  final JcstressClock clock = new JcstressClock(EXPIRING_ORIGIN);
  final ExpiringBloomFilter<Integer> filter = JcstressKeys.expiring(clock);

  public ExpiringAddRacesALongJump() {
    clock.set(T);
  }

  @Actor
  public void actor1(ZZZZZZ_Result r) {
    r.r1 = filter.add(KEYS[0]);
  }

  @Actor
  public void actor2(ZZZZZZ_Result r) {
    r.r2 = filter.add(KEYS[1]);
  }

  @Arbiter
  public void arbiter(ZZZZZZ_Result r) {
    r.r3 = filter.mightContain(KEYS[0]);
    r.r4 = filter.mightContain(KEYS[1]);
    clock.set(T + EXPIRING_WINDOW - 1);
    r.r5 = filter.mightContain(KEYS[0]);
    r.r6 = filter.mightContain(KEYS[1]);
  }
}
