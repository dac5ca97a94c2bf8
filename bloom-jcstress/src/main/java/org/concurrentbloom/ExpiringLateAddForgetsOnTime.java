package org.concurrentbloom;

import static org.concurrentbloom.JcstressKeys.EXPIRING_ORIGIN;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZZ_Result;

/**
 * A late add one slot behind must not keep the current generation's older items past maxRetention, on an
 * {@link ExpiringBloomFilter} ({@link JcstressKeys#expiring}: W = 7 s, s = 1 s, 8 generations, so
 * maxRetention is 8 s). y was added at O + 7 s, in slot 7, which is then current; the clock is then set to
 * t = O + 8.5 s (slot 8) with no operation since. Actor 2 queries y, which runs the step from slot 7 to 8;
 * actor 1 adds x, reading the current slot 7 and then the clock t, past the end of slot 7: slot 7's
 * generation lives until O + 15 s, before t + W = O + 15.5 s, so x must not stay only there, and must not
 * keep slot 7's generation (y with it) alive either.
 *
 * <p>The guarantees, checked by the arbiter at O + 15.2 s: x, added after the clock showed t, is found
 * (15.2 s is before t + W); y, last added at O + 7 s, is gone (15.2 s is past O + 7 s + maxRetention),
 * and the items' cells are disjoint, so no answer comes from another item's bits. Until 2026-12-02 a
 * late add kept its generation until its reading + W (O + 15.5 s), so y was still found.
 *
 * <p>Result: (add(x), y by actor 2 at t, x and y by the arbiter at O + 15.2 s).
 */
@JCStressTest
@Outcome(id = "true, true, true, false", expect = ACCEPTABLE,
    desc = "x new and found inside its window; y found at t and forgotten after maxRetention.")
@Outcome(expect = FORBIDDEN,
    desc = "x lost inside its window (false negative), y remembered past maxRetention, or a wrong answer.")
@State
public class ExpiringLateAddForgetsOnTime {
  static final int[] KEYS = JcstressKeys.expiringDisjoint(2);
  static final int X = KEYS[0];
  static final int Y = KEYS[1];

  final JcstressClock clock = new JcstressClock(EXPIRING_ORIGIN);
  final ExpiringBloomFilter<Integer> filter = JcstressKeys.expiring(clock);

  public ExpiringLateAddForgetsOnTime() {
    clock.set(EXPIRING_ORIGIN + 7_000);
    filter.add(Y); // steps to slot 7, then adds y there
    clock.set(EXPIRING_ORIGIN + 8_500);
  }

  @Actor
  public void actor1(ZZZZ_Result r) {
    r.r1 = filter.add(X);
  }

  @Actor
  public void actor2(ZZZZ_Result r) {
    r.r2 = filter.mightContain(Y);
  }

  @Arbiter
  public void arbiter(ZZZZ_Result r) {
    clock.set(EXPIRING_ORIGIN + 15_200);
    r.r3 = filter.mightContain(X);
    r.r4 = filter.mightContain(Y);
  }
}
