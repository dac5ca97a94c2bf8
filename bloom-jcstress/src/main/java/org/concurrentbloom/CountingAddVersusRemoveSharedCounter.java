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
 * An add and a remove of different items race on one counter, and so on one 64-bit word: a and b share
 * exactly one counter, b was added before. Whatever the order, the shared counter ends at 1 (a's), so a
 * is present; b's other counters end at 0, so b is absent. An increment and a decrement of the word done
 * as plain read-modify-writes would lose one: the shared counter would end at 0 (a false negative for a)
 * or at 2 (b's remove lost).
 *
 * <p>Result: (add(a), remove(b), then mightContain(a), mightContain(b)).
 */
@JCStressTest
@Outcome(id = "true, true, true, false", expect = ACCEPTABLE,
    desc = "a was new and is present; b was removed and is absent.")
@Outcome(expect = FORBIDDEN, desc = "The shared counter lost an update: a absent, or b present.")
@State
public class CountingAddVersusRemoveSharedCounter {
  static final int[] KEYS = CountingKeys.sharingOneCounter(64, 3);
  static final int A = KEYS[0];
  static final int B = KEYS[1];

  final CountingBloomFilter<Integer> filter = CountingKeys.filter(64, 3);

  public CountingAddVersusRemoveSharedCounter() {
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
