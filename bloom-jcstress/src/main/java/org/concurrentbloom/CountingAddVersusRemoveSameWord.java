package org.concurrentbloom;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZZ_Result;

/**
 * An add and a remove of different items race on one counter word. a and b have no common counter, but
 * counters in a common 64-bit word; b was added before. An increment and a decrement of that word done
 * as plain read-modify-writes would lose one of them: a's increment (a false negative for a) or b's
 * decrement (b stays present, or worse, a borrow into a's nibble).
 *
 * <p>Result: (add(a), remove(b), then mightContain(a), mightContain(b)).
 */
@JCStressTest
@Outcome(id = "true, true, true, false", expect = ACCEPTABLE,
    desc = "a was new and is present; b was removed and is absent.")
@Outcome(expect = FORBIDDEN, desc = "A lost increment (a absent: a false negative) or a lost decrement.")
@State
public class CountingAddVersusRemoveSameWord {
  static final int[] KEYS = CountingKeys.disjointSharingAWord(64, 3);
  static final int A = KEYS[0];
  static final int B = KEYS[1];

  final CountingBloomFilter<Integer> filter = CountingKeys.filter(64, 3);

  public CountingAddVersusRemoveSameWord() {
    filter.add(B);
  }

  @Actor
  public void actor1(ZZZZ_Result r) {
    r.r1 = filter.add(A);
  }

  @Actor
  public void actor2(ZZZZ_Result r) {
    r.r2 = filter.remove(B);
  }

  @Arbiter
  public void arbiter(ZZZZ_Result r) {
    r.r3 = filter.mightContain(A);
    r.r4 = filter.mightContain(B);
  }
}
