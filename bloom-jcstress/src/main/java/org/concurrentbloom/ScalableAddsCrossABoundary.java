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
 * Two adds race for the last slot of a {@link ScalableBloomFilter}'s newest layer. Layers have capacity
 * 1, 2, 4 (n0 = 1, s = 2) and all the shape of a 256-bit, 3-hash filter in which the four items have
 * disjoint bits; the state has added items 0 and 1, so layer 1 has one slot left. One add takes it and
 * builds layer 2; the other finds no room and must wait for (or build) layer 2 and add there.
 *
 * <p>Result: (add(2), add(3), mightContain(2), mightContain(3), layers as expected). Both adds are of
 * new items, so both return true; neither may be lost; exactly one layer is added for the boundary, and
 * the full layer is not overfilled: the layers hold 1, 2 and 1 items.
 */
@JCStressTest
@Outcome(id = "true, true, true, true, true", expect = ACCEPTABLE,
    desc = "Both adds changed the filter, both items are present, one layer was added, none overfilled.")
@Outcome(expect = FORBIDDEN, desc = "A lost add, a wrong add result, a wrong number of layers or an overfilled layer.")
@State
public class ScalableAddsCrossABoundary {
  static final Layout LAYOUT = new StandardLayout(256, 3);
  static final int[] KEYS = JcstressKeys.disjoint(LAYOUT, 4);

  final ScalableBloomFilter<Integer> filter =
      ScalableBloomFilter.withLayouts(Funnels.integerFunnel(), 1, 2, i -> LAYOUT);

  public ScalableAddsCrossABoundary() {
    filter.add(KEYS[0]);
    filter.add(KEYS[1]);
  }

  @Actor
  public void actor1(ZZZZZ_Result r) {
    r.r1 = filter.add(KEYS[2]);
  }

  @Actor
  public void actor2(ZZZZZ_Result r) {
    r.r2 = filter.add(KEYS[3]);
  }

  @Arbiter
  public void arbiter(ZZZZZ_Result r) {
    r.r3 = filter.mightContain(KEYS[2]);
    r.r4 = filter.mightContain(KEYS[3]);
    r.r5 = filter.layerStats().stream().map(ScalableBloomFilter.LayerStats::count).toList()
        .equals(java.util.List.of(1L, 2L, 1L));
  }
}
