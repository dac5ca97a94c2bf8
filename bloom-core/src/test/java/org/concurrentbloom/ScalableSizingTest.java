package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The layer plan of {@link ScalableBloomFilter}, and the measurement behind its default tightening
 * ratio: total bits of the layers a filter needs to grow 1,000× past its initial capacity.
 */
class ScalableSizingTest {

  private static LayerPlan plan(long n0, double p, int s, double r) {
    return new LayerPlan(n0, p, s, r, FilterType.STANDARD, LayerPlan.NO_CAP, null);
  }

  /** Bits of layers 0 .. layers-1, from the real sizing. */
  private static long totalBits(LayerPlan plan, int layers) {
    long bits = 0;
    for (int i = 0; i < layers; i++) {
      bits += plan.layout(i).bits;
    }
    return bits;
  }

  /**
   * n0 = 1,000, p = 1%, s = 2: 10^6 items fill 10 layers (capacity 1,023,000). The numbers are the
   * ones the design comment of ScalableBloomFilter and docs/SCALABLE.md quote.
   */
  @Test
  void theDefaultRatioNeedsTheFewestBitsAfterAThousandfoldGrowth() {
    int layers = ScalableBloomFilterTest.expectedLayers(1_000, 2, 1_000_000);
    assertThat(layers).isEqualTo(10);
    Map<Double, Long> bits = new LinkedHashMap<>();
    for (double r : new double[] {0.8, 0.85, 0.9, 0.95}) {
      bits.put(r, totalBits(plan(1_000, 0.01, 2, r), layers));
    }
    assertThat(bits).containsExactly(Map.entry(0.8, 17_038_464L), Map.entry(0.85, 16_617_024L),
        Map.entry(0.9, 16_505_536L), Map.entry(0.95, 17_059_328L));
    assertThat(ScalableBloomFilter.Builder.DEFAULT_TIGHTENING_RATIO).isEqualTo(0.9);
    // For comparison: one standard filter sized for 10^6 items up front.
    assertThat(Sizing.optimalBits(1_000_000, 0.01)).isEqualTo(9_585_088L);
  }

  @Test
  void layerRatesSumBelowTheTargetHoweverManyLayers() {
    for (double r : new double[] {0.01, 0.5, 0.9, 0.999}) {
      LayerPlan plan = plan(1, 0.01, 2, r);
      double sum = 0;
      for (int i = 0; i < 64; i++) {
        sum += plan.fpp(i);
      }
      assertThat(sum).as("r=%s", r).isLessThanOrEqualTo(0.01);
    }
  }

  @Test
  void capacitiesGrowGeometricallyUntilTheyWouldOverflow() {
    LayerPlan plan = plan(3, 0.01, 2, 0.9);
    assertThat(plan.capacity(0)).isEqualTo(3);
    assertThat(plan.capacity(10)).isEqualTo(3L << 10);
    assertThat(plan.capacity(61)).isEqualTo(3L << 61);
    assertThat(plan.capacity(62)).isEqualTo(-1);
    assertThat(plan(1, 0.01, 1024, 0.9).capacity(6)).isEqualTo(1L << 60);
    assertThat(plan(1, 0.01, 1024, 0.9).capacity(7)).isEqualTo(-1);
  }

  @Test
  void layersThatCannotExistAreRefusedWithTheReason() {
    assertThatThrownBy(() -> plan(3, 0.01, 2, 0.9).layout(62)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("more than " + Long.MAX_VALUE);
    assertThatThrownBy(() -> plan(1, 0.01, 2, 1e-200).layout(2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("underflows to 0");
    assertThatThrownBy(() -> plan(1L << 40, 0.01, 2, 0.9).layout(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("limit of " + Sizing.MAX_BITS);
  }
}
