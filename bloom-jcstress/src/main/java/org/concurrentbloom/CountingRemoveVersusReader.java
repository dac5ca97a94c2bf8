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
 * A lock-free reader during a remove sees some of its decrements and not others; that must never make
 * an item that is still present look absent. x was added twice and w, which shares a counter with x,
 * once; one remove of x runs while a reader asks for x and then w. Every counter of x stays at 1 or more
 * and w's shared counter at 2 or more until the remove ends, and above 0 after it.
 *
 * <p>Result: (remove(x), mightContain(x) and mightContain(w) during, then mightContain(x)).
 */
@JCStressTest
@Outcome(id = "true, true, true, true", expect = ACCEPTABLE, desc = "x was present twice: one copy is left.")
@Outcome(expect = FORBIDDEN, desc = "A reader saw a partial remove as a false negative.")
@State
public class CountingRemoveVersusReader {
  static final int[] KEYS = CountingKeys.sharingOneCounter(64, 3);
  static final int X = KEYS[0];
  static final int W = KEYS[1];

  final CountingBloomFilter<Integer> filter = CountingKeys.filter(64, 3);

  public CountingRemoveVersusReader() {
    filter.add(X);
    filter.add(X);
    filter.add(W);
  }

  @Actor
  public void remover(ZZZZ_Result r) {
    r.r1 = filter.remove(X);
  }

  @Actor
  public void reader(ZZZZ_Result r) {
    r.r2 = filter.mightContain(X);
    r.r3 = filter.mightContain(W);
  }

  @Arbiter
  public void arbiter(ZZZZ_Result r) {
    r.r4 = filter.mightContain(X);
  }
}
