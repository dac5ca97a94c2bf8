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
 * The clock goes backwards after a step, then an add races the next step, on an {@link
 * ExpiringBloomFilter} ({@link JcstressKeys#expiring}: W = 7 s, s = 1 s, 8 generations). The state: a
 * query at O + 2.5 s has stepped to slot 2, then the clock was set back to t = O + 1.5 s (slot 1, before
 * the current slot). Actor 1 adds x, reading a clock that may show t or actor 2's later time; actor 2
 * sets the clock forward to O + 3.5 s (slot 3) and adds y, which runs the step from slot 2 to 3.
 *
 * <p>The guarantee: an add is kept until the clock has shown its time + W. x's add began after the
 * clock showed t, y's after it showed O + 3.5 s, and both returned before the arbiter's queries at
 * t + W − 1 ms, so both items must be found.
 *
 * <p>Result: (add(x), add(y), mightContain(x), mightContain(y)).
 */
@JCStressTest
@Outcome(id = "true, true, true, true", expect = ACCEPTABLE,
    desc = "Both adds new, both items found just before x's t + W.")
@Outcome(expect = FORBIDDEN, desc = "An item lost inside its window (false negative), or a wrong add result.")
@State
public class ExpiringAddAfterTheClockWentBack {
  static final int[] KEYS = JcstressKeys.expiringDisjoint(2);
  static final long T = EXPIRING_ORIGIN + 1_500;

  final JcstressClock clock = new JcstressClock(EXPIRING_ORIGIN);
  final ExpiringBloomFilter<Integer> filter = JcstressKeys.expiring(clock);

  public ExpiringAddAfterTheClockWentBack() {
    clock.set(EXPIRING_ORIGIN + 2_500);
    filter.mightContain(KEYS[1]);
    clock.set(T);
  }

  @Actor
  public void actor1(ZZZZ_Result r) {
    r.r1 = filter.add(KEYS[0]);
  }

  @Actor
  public void actor2(ZZZZ_Result r) {
    clock.set(EXPIRING_ORIGIN + 3_500);
    r.r2 = filter.add(KEYS[1]);
  }

  @Arbiter
  public void arbiter(ZZZZ_Result r) {
    clock.set(T + EXPIRING_WINDOW - 1);
    r.r3 = filter.mightContain(KEYS[0]);
    r.r4 = filter.mightContain(KEYS[1]);
  }
}
