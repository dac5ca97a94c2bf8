package org.concurrentbloom;

import static org.concurrentbloom.JcstressKeys.EXPIRING_ORIGIN;
import static org.concurrentbloom.JcstressKeys.EXPIRING_WINDOW;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZZZ_Result;

/**
 * {@link ExpiringAddRacesALongJump} on a filter that holds z, added at O in slot 0, so the all-clean
 * shortcut is never taken: the step from slot 0 to 70 runs as ten steps of up to 7 slots, each clearing
 * the generations it recycles (slot 0's, with z's bits, in the second), while add(x) races them from
 * the current slot it read, possibly several steps behind. Actor 2 runs the steps, through a query of z.
 *
 * <p>The guarantees: x was added after the clock showed t = O + 70.5 s and before the arbiter's
 * queries, so it must be found at t and at t + W − 1 ms; z was added more than maxRetention (8 s)
 * before t and no item shares a cell with it, so every query of z at t or later must answer false
 * (the generations past their time are left out by the clock even before a step has cleared them).
 *
 * <p><b>Known issue, not fixed</b> (hence ACCEPTABLE_INTERESTING, not FORBIDDEN, for z found): when
 * add(x) finds the step claimed by actor 2 while the state is still at slot 0, it raises slot 0's
 * generation's keptUntil to its reading + W = O + 77.5 s and returns; the next step, which would recycle
 * that generation (slot 8), is held back until then, and queries keep the generation valid, so z, 70 s
 * old, is reported until O + 77.5 s, against maxRetention. Seen in about 3% of the samples. The late add
 * keeps the whole generation, whose items are as old as the state's lag behind the clock. x is never
 * lost, which stays FORBIDDEN. docs/EXPIRING.md, section 3.2, states this exception to the forgetting
 * bound and the planned fix (explicit slot labels); make this outcome FORBIDDEN when it is built.
 *
 * <p>Result: (add(x), z by actor 2, x at t, z at t, x at t + W − 1 ms).
 */
@JCStressTest
@Outcome(id = "true, false, true, false, true", expect = ACCEPTABLE,
    desc = "x new and found at t and just before t + W; z forgotten.")
@Outcome(id = {"true, true, true, true, true", "true, false, true, true, true", "true, true, true, false, true"},
    expect = ACCEPTABLE_INTERESTING,
    desc = "KNOWN ISSUE: z remembered past maxRetention, kept by x's late add (see the class comment); x kept.")
@Outcome(expect = FORBIDDEN,
    desc = "x lost inside its window (false negative), z remembered past maxRetention, or a wrong add result.")
@State
public class ExpiringAddRacesLongSteps {
  static final int[] KEYS = JcstressKeys.expiringDisjoint(2);
  static final int X = KEYS[0];
  static final int Z = KEYS[1];
  static final long T = EXPIRING_ORIGIN + 70_500;

  final JcstressClock clock = new JcstressClock(EXPIRING_ORIGIN);
  final ExpiringBloomFilter<Integer> filter = JcstressKeys.expiring(clock);

  public ExpiringAddRacesLongSteps() {
    filter.add(Z);
    clock.set(T);
  }

  @Actor
  public void actor1(ZZZZZ_Result r) {
    r.r1 = filter.add(X);
  }

  @Actor
  public void actor2(ZZZZZ_Result r) {
    r.r2 = filter.mightContain(Z);
  }

  @Arbiter
  public void arbiter(ZZZZZ_Result r) {
    r.r3 = filter.mightContain(X);
    r.r4 = filter.mightContain(Z);
    clock.set(T + EXPIRING_WINDOW - 1);
    r.r5 = filter.mightContain(X);
  }
}
