package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The compound false-positive rate of a {@link ScalableBloomFilter} grown to 1,000 times its initial
 * capacity (n0 = 1,000, 10^6 items, 10 layers) stays within the target, with the same statistical
 * bound as {@link FalsePositiveRateTest}: N = 10^6 probes of never-inserted keys, measured rate at most
 * 1.1 p + 3 SE with SE = sqrt(p(1-p)/N), which a filter whose true rate is at most 1.1 p exceeds with
 * probability about 0.13%. Keys are fixed, so each run is identical.
 *
 * <p>Measured here (rate, the filter's {@link ScalableBloomFilter#estimatedFpp()}, {@link
 * ScalableBloomFilter#fppBound()}), for the layers' hash strategies 1 and 2 (MurmurHash3): standard p =
 * 1%: 0.636%, 0.630%, 0.651%; blocked p = 1%: 0.667%, 0.582%, 0.651%; standard p = 0.1%: 0.0587%,
 * 0.0640%, 0.0651%; and 4 and 5 (XXH3, the defaults): standard p = 1%: 0.633%, 0.642%, 0.651%; blocked
 * p = 1%: 0.622%, 0.586%, 0.651%; standard p = 0.1%: 0.0611%, 0.0639%, 0.0651%. After ten layers the rates of the
 * layers sum to p(1 − 0.9^10) = 0.65 p: the bound leaves room for every later layer. (The realized rate
 * of one filter scatters around the model, most for small layers: the first blocked layer has 28
 * blocks. So the model is not used as a statistical bound here.)
 */
@Tag("jdk-independent") // rates of fixed keys under fixed hashes: the same on every JDK (.ci/run)
class ScalableFalsePositiveRateTest {
  private static final int INITIAL_CAPACITY = 1_000;
  private static final int ITEMS = 1_000_000;
  private static final int PROBES = 1_000_000;

  @ParameterizedTest(name = "{0} layers, p={1}")
  @CsvSource({"MURMUR3_128_ENHANCED_DOUBLE, 0.01", "MURMUR3_128_BLOCKED, 0.01", "MURMUR3_128_ENHANCED_DOUBLE, 0.001",
      "XXH3_64_ENHANCED_DOUBLE, 0.01", "XXH3_64_BLOCKED, 0.01", "XXH3_64_ENHANCED_DOUBLE, 0.001"})
  void compoundRateAfterGrowingAThousandfoldMeetsTheTarget(HashStrategy strategy, double p) {
    ScalableBloomFilter.Builder<CharSequence> builder = ScalableBloomFilter.<CharSequence>builder(
        Funnels.stringFunnel()).initialCapacity(INITIAL_CAPACITY).fpp(p).hashStrategy(strategy);
    ScalableBloomFilter<CharSequence> f = FalsePositiveRateTest.isBlocked(strategy) ? builder.blocked().build()
        : builder.build();
    assertThat(f.hashStrategy()).isEqualTo(strategy);
    for (int i = 0; i < ITEMS; i++) {
      f.add(FalsePositiveRateTest.insertedKey(i));
    }
    assertThat(f.layerCount()).isEqualTo(10)
        .isEqualTo(ScalableBloomFilterTest.expectedLayers(INITIAL_CAPACITY, 2, f.count()));
    for (int i = 0; i < ITEMS; i++) {
      assertThat(f.mightContain(FalsePositiveRateTest.insertedKey(i))).as("false negative for key %d", i).isTrue();
    }
    long falsePositives = 0;
    for (int i = 0; i < PROBES; i++) {
      if (f.mightContain(FalsePositiveRateTest.absentKey(i))) {
        falsePositives++;
      }
    }
    double measured = (double) falsePositives / PROBES;
    System.out.printf("scalable FPR %s p=%s: %.4f%%, estimated %.4f%%, bound %.4f%%%n", strategy, p,
        100 * measured, 100 * f.estimatedFpp(), 100 * f.fppBound());
    assertThat(measured).as("measured compound FPR").isLessThanOrEqualTo(1.1 * p + 3 * standardError(p));
    assertThat(f.estimatedFpp()).isLessThanOrEqualTo(f.fppBound());
    assertThat(f.fppBound()).isCloseTo(p * (1 - Math.pow(0.9, 10)), within(1e-12));
  }

  private static double standardError(double rate) {
    return Math.sqrt(rate * (1 - rate) / PROBES);
  }
}
