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
 * Queries made while a merge runs see every add that finished before them. Actor 1 adds x and then
 * asks for it; actor 2 merges in a filter holding z, then asks for z and for x. There is no clear, so
 * nothing is ever removed: actor 1 must find its own finished add, actor 2 must find z after its merge
 * returned, and x must be present at the end. Actor 2's query of x may go either way.
 *
 * <p>Result: (actor 1's mightContain(x) after its add, actor 2's mightContain(z) after its merge,
 * actor 2's mightContain(x), mightContain(x) after both finished).
 */
@JCStressTest
@Outcome(id = "true, true, (true|false), true", expect = ACCEPTABLE,
    desc = "Finished adds and the finished merge are visible; x raced actor 2's query.")
@Outcome(expect = FORBIDDEN, desc = "A query missed an add or merge that had finished before it.")
@State
public class AddThenQueryDuringMerge {
  static final int[] KEYS = JcstressKeys.disjoint(64, 3, 2);
  static final int X = KEYS[0];
  static final int Z = KEYS[1];

  final BloomFilter<Integer> filter = JcstressKeys.filter(64, 3);
  final BloomFilter<Integer> other = JcstressKeys.filter(64, 3);

  public AddThenQueryDuringMerge() {
    other.add(Z);
  }

  @Actor
  public void actor1(ZZZZ_Result r) {
    filter.add(X);
    r.r1 = filter.mightContain(X);
  }

  @Actor
  public void actor2(ZZZZ_Result r) {
    filter.merge(other);
    r.r2 = filter.mightContain(Z);
    r.r3 = filter.mightContain(X);
  }

  @Arbiter
  public void arbiter(ZZZZ_Result r) {
    r.r4 = filter.mightContain(X);
  }
}
