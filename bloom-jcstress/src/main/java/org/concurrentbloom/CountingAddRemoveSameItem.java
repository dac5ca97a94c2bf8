package org.concurrentbloom;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZZZ_Result;

/**
 * A remove of x must not act on half of an add of x. w holds the counter x shares with it; x's own
 * counters lie in lower words, which x's add increments first (CountingKeys.sharingXsLastCounter). If
 * remove(x) ran between those increments and the shared one, it would find all of x's counters at 1,
 * succeed, and take the shared counter to 0: w, added long before and never removed, would be absent
 * until the add finishes. The remover asks for w right after its remove, while such an add may still be
 * running. (jcstress runs no three-actor test on two cores, so there is no separate reader.) The filter's
 * gate makes add(x) and remove(x) exclude each other, so the remove either fails (before the add) or
 * takes the whole add (after it).
 *
 * <p>Result: (add(x), remove(x), mightContain(w) right after the remove, then mightContain(x),
 * mightContain(w)).
 */
@JCStressTest
@Outcome(id = "true, false, true, true, true", expect = ACCEPTABLE,
    desc = "The remove came first and found x absent; the add then put it in.")
@Outcome(id = "true, true, true, false, true", expect = ACCEPTABLE,
    desc = "The add came first; the remove took it out again.")
@Outcome(expect = FORBIDDEN, desc = "w went missing (a false negative), or x's state contradicts the remove.")
@State
public class CountingAddRemoveSameItem {
  static final int[] KEYS = CountingKeys.sharingXsLastCounter(64, 3);
  static final int X = KEYS[0];
  static final int W = KEYS[1];

  final CountingBloomFilter<Integer> filter = CountingKeys.filter(64, 3);

  public CountingAddRemoveSameItem() {
    filter.add(W);
  }

  @Actor
  public void adder(ZZZZZ_Result r) {
    r.r1 = filter.add(X);
  }

  @Actor
  public void remover(ZZZZZ_Result r) {
    r.r2 = filter.remove(X);
    r.r3 = filter.mightContain(W);
  }

  @Arbiter
  public void arbiter(ZZZZZ_Result r) {
    r.r4 = filter.mightContain(X);
    r.r5 = filter.mightContain(W);
  }
}
