package org.concurrentbloom;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * {@link AddSeenBeforeClearIsCleared} on the blocked layout (one 512-bit block): an add that actor 2
 * saw before its clear was ordered before that clear, so it must be gone once both actors are done.
 *
 * <p>Result: (actor 2's mightContain(x) before its clear, mightContain(x) after both finished).
 */
@JCStressTest
@Outcome(id = {"false, false", "false, true"}, expect = ACCEPTABLE,
    desc = "The query ran before the add took effect; the add then fell before or after the clear.")
@Outcome(id = "true, false", expect = ACCEPTABLE, desc = "Seen, so ordered before the clear: cleared.")
@Outcome(id = "true, true", expect = FORBIDDEN,
    desc = "Seen before the clear and kept after it: the add took effect on both sides.")
@State
public class BlockedAddSeenBeforeClearIsCleared {
  static final Layout LAYOUT = JcstressKeys.blocked(512, 3);
  static final int X = JcstressKeys.disjoint(LAYOUT, 1)[0];

  /** Copied for each state: see {@link JcstressKeys#filter(Layout)}. */
  static final BloomFilter<Integer> EMPTY = JcstressKeys.filter(LAYOUT);

  final BloomFilter<Integer> filter = EMPTY.copy();

  @Actor
  public void actor1() {
    filter.add(X);
  }

  @Actor
  public void actor2(ZZ_Result r) {
    r.r1 = filter.mightContain(X);
    filter.clear();
  }

  @Arbiter
  public void arbiter(ZZ_Result r) {
    r.r2 = filter.mightContain(X);
  }
}
