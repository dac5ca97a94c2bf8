package org.concurrentbloom;

import static org.concurrentbloom.BloomFilterLincheckTest.call;

import java.util.List;
import org.concurrentbloom.BloomFilterLincheckTest.Call;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck: {@code add}, {@code mightContain} and {@code clear} of a {@link ScalableBloomFilter} that
 * grows during the test are linearizable against a plain set.
 *
 * <p>The filter starts with a layer of capacity 1 and doubles (n0 = 1, s = 2), so the first add already
 * adds a layer and five keys cross three boundaries. Every layer has the shape of {@link
 * BloomFilterLincheckTest#STANDARD} (256 bits, 3 hash functions), in which that class's five keys have
 * pairwise disjoint probe bits; so no key is ever reported through other keys' bits, in any layer, and
 * a set is the exact specification (see BloomFilterLincheckTest's class comment for why that matters).
 *
 * <p>What the interleavings reach: a query racing the publication of a layer; two or three adds racing
 * for a layer's last slot, the losers waiting for (or claiming) the growth; adds of a key already in an
 * older layer; a clear racing a growth, whose layer must then be dropped, not grafted onto the new
 * generation. The main tests ignore add's result (two overlapping adds of one new key may both return
 * true); {@link AddResultTest} checks it with adds confined to one thread. Model checking (Lincheck
 * picks the thread switch at every shared access: the slot CASes, the claim, the latch, the array CAS)
 * on random and hand-written scenarios, and stress with real threads. The class takes some 15 to 25 s on
 * two cores. Checked by seeding faults into a copy of the filter: adds that drop their item when the
 * layer is full, and growth that publishes its layer without the CAS (so that a layer built before a
 * clear is grafted onto the cleared filter), each fail both modelChecking and handWrittenScenarios.
 */
@Tag("jdk-independent") // Lincheck explores interleavings of the library's bytecode: the same on every JDK (.ci/run)
public class ScalableBloomFilterLincheckTest {
  private static final BloomFilterLincheckTest.Domain DOMAIN = BloomFilterLincheckTest.STANDARD;

  static ScalableBloomFilter<Integer> newFilter() {
    return ScalableBloomFilter.withLayouts(Funnels.integerFunnel(), 1, 2, i -> DOMAIN.layout);
  }

  /** Lincheck creates one per scenario run: a fresh filter with one empty layer of capacity 1. */
  @Param(name = "key", gen = IntGen.class, conf = "0:" + (BloomFilterLincheckTest.KEY_COUNT - 1))
  public static class FilterUnderTest {
    final ScalableBloomFilter<Integer> filter = newFilter();

    @Operation
    public void add(@Param(name = "key") int key) {
      filter.add(DOMAIN.keys[key]);
    }

    @Operation
    public boolean mightContain(@Param(name = "key") int key) {
      return filter.mightContain(DOMAIN.keys[key]);
    }

    @Operation
    public void clear() {
      filter.clear();
    }
  }

  /** add's result, adds never overlapping each other; queries and clears overlap them. */
  @Param(name = "key", gen = IntGen.class, conf = "0:" + (BloomFilterLincheckTest.KEY_COUNT - 1))
  public static class AddResultTest {
    private final FilterUnderTest target = new FilterUnderTest();

    @Operation(nonParallelGroup = "adders")
    public boolean add(@Param(name = "key") int key) {
      return target.filter.add(DOMAIN.keys[key]);
    }

    @Operation
    public boolean mightContain(@Param(name = "key") int key) {
      return target.mightContain(key);
    }

    @Operation
    public void clear() {
      target.clear();
    }
  }

  @Test
  void modelChecking() {
    BloomFilterLincheckTest.modelCheckingOptions()
        .iterations(5)
        .invocationsPerIteration(200)
        .threads(3)
        .actorsPerThread(2)
        .actorsBefore(1)
        .actorsAfter(1)
        .sequentialSpecification(BloomFilterLincheckTest.SetSpec.class)
        .check(FilterUnderTest.class);
  }

  @Test
  void stress() {
    new StressOptions()
        .iterations(4)
        .invocationsPerIteration(1_000)
        .threads(3)
        .actorsPerThread(3)
        .actorsBefore(1)
        .actorsAfter(2)
        .sequentialSpecification(BloomFilterLincheckTest.SetSpec.class)
        .check(FilterUnderTest.class);
  }

  @Test
  void addResultModelChecking() {
    BloomFilterLincheckTest.modelCheckingOptions()
        .iterations(2)
        .invocationsPerIteration(150)
        .threads(2)
        .actorsPerThread(3)
        .actorsBefore(1)
        .actorsAfter(1)
        .sequentialSpecification(BloomFilterLincheckTest.AddResultSpec.class)
        .check(AddResultTest.class);
  }

  /**
   * Shapes random scenarios reach rarely. (1) After add(0) the second layer has two slots; three
   * threads add three new keys, so one must find no room and wait for (or build) the third layer, and
   * all three must be found afterwards. (2) The same crossing while a third thread clears and then asks
   * for the keys: each add is kept or cleared as a whole, consistently with the queries. (3) A reader
   * asking for a key while its add crosses a boundary, and for an older key while the layers change.
   */
  @Test
  void handWrittenScenarios() {
    BloomFilterLincheckTest.modelCheckingOptions()
        .iterations(0)
        .invocationsPerIteration(120)
        .addCustomScenario(scenario(List.of(call("add", 0)),
            List.of(List.of(call("add", 1)), List.of(call("add", 2)), List.of(call("add", 3))),
            List.of(call("mightContain", 1), call("mightContain", 2), call("mightContain", 3))))
        .addCustomScenario(scenario(List.of(call("add", 0), call("add", 1)),
            List.of(List.of(call("add", 2)), List.of(call("add", 3)),
                List.of(call("clear"), call("mightContain", 3), call("mightContain", 2))),
            List.of(call("mightContain", 2), call("mightContain", 3), call("mightContain", 0))))
        .addCustomScenario(scenario(List.of(call("add", 0)),
            List.of(List.of(call("add", 1), call("add", 2)),
                List.of(call("mightContain", 2), call("mightContain", 0), call("mightContain", 1))),
            List.of(call("mightContain", 1), call("mightContain", 2))))
        .sequentialSpecification(BloomFilterLincheckTest.SetSpec.class)
        .check(FilterUnderTest.class);
  }

  private static ExecutionScenario scenario(List<Call> init, List<List<Call>> threads, List<Call> post) {
    return BloomFilterLincheckTest.scenario(FilterUnderTest.class, init, threads, post);
  }
}
