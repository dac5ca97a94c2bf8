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
 * An add overlapping a clear is ordered wholly before or wholly after it, never both (BloomFilter's
 * class comment). Actor 2 sees x and then clears; if it saw x, the add was before the clear, so x must
 * be absent once both actors are done. Seeing x, then having it survive the clear, means one add took
 * effect on both sides of the clear.
 *
 * <p>Result: (actor 2's mightContain(x) before its clear, mightContain(x) after both finished).
 *
 * <p>The forbidden outcome needs actor 1 to stall between setting its last bit and checking whether its
 * table was sealed, a window of a few instructions, so a short run seldom reaches it; Lincheck's model
 * checker (BloomFilterLincheckTest#addSeenBeforeClearIsNotKeptAfterIt) reaches it deterministically.
 */
@JCStressTest
@Outcome(id = {"false, false", "false, true"}, expect = ACCEPTABLE,
    desc = "The query ran before the add took effect; the add then fell before or after the clear.")
@Outcome(id = "true, false", expect = ACCEPTABLE, desc = "Seen, so ordered before the clear: cleared.")
@Outcome(id = "true, true", expect = FORBIDDEN,
    desc = "Seen before the clear and kept after it: the add took effect on both sides.")
@State
public class AddSeenBeforeClearIsCleared {
  static final int X = JcstressKeys.disjoint(64, 3, 1)[0];

  final BloomFilter<Integer> filter = JcstressKeys.filter(64, 3);

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
