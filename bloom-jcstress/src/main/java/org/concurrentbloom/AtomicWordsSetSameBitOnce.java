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
 * Two threads set the same bit with {@link AtomicWords#setBitCas}: exactly one of them turned it on,
 * so exactly one returns true. This is what makes {@code add}'s result meaningful: "this call changed
 * the filter" is never claimed by two calls for one bit.
 *
 * <p>Result: (actor 1's return, actor 2's return, bit set afterwards).
 */
@JCStressTest
@Outcome(id = {"true, false, true", "false, true, true"}, expect = ACCEPTABLE,
    desc = "Exactly one call turned the bit on.")
@Outcome(expect = FORBIDDEN, desc = "Both or neither claimed the bit, or it is not set.")
@State
public class AtomicWordsSetSameBitOnce {
  final long[] words = new long[1];

  @Actor
  public void actor1(ZZZ_Result r) {
    r.r1 = AtomicWords.setBitCas(words, 17);
  }

  @Actor
  public void actor2(ZZZ_Result r) {
    r.r2 = AtomicWords.setBitCas(words, 17);
  }

  @Arbiter
  public void arbiter(ZZZ_Result r) {
    r.r3 = AtomicWords.testBitAcquire(words, 17);
  }
}
