package org.concurrentbloom.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.concurrentbloom.ScalableBloomFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The filters {@link ScalableBenchmark} compares are what it says: grown as described, working, emptied by clear. */
class ScalableBenchmarkTest {
  private static final int N = 300_000;

  @ParameterizedTest
  @EnumSource(ScalableBenchmark.Growth.class)
  void grownFilterFindsEveryKeyAndStaysWithinTheTarget(ScalableBenchmark.Growth growth) {
    ScalableBenchmark.Grown state = new ScalableBenchmark.Grown();
    state.impl = growth;
    state.n = N;
    state.keys = KeyType.STRING;
    state.grow();
    for (long i = 0; i < N; i++) {
      assertThat(state.filter.mightContain((CharSequence) KeyType.STRING.key(i))).isTrue();
    }
    int falsePositives = 0;
    for (long i = N; i < N + 100_000; i++) {
      if (state.filter.mightContain((CharSequence) KeyType.STRING.key(i))) {
        falsePositives++;
      }
    }
    // At most the target 1% (1,000 of 100,000) plus 3 standard errors (95); the scalable filters, whose
    // layers' rates sum to less, have fewer, but some.
    assertThat(falsePositives).as("%s false positives in 100,000", growth).isBetween(1, 1_095);
    assertThat(state.queries).hasSize(QueryKeys.COUNT);
  }

  @Test
  void scalableFiltersGrowThroughTheirLayersAndClearBackToOne() {
    ScalableBenchmark.Growing state = new ScalableBenchmark.Growing();
    state.impl = ScalableBenchmark.Growth.SCALABLE_FROM_1K;
    state.n = N;
    state.keys = KeyType.STRING;
    state.prepare();
    for (Object key : state.fresh) {
      state.filter.add((CharSequence) key);
    }
    ScalableBloomFilter<?> scalable = (ScalableBloomFilter<?>) state.filter;
    assertThat(scalable.layerCount()).isEqualTo(9); // 1,000 · (2^9 − 1) = 511,000 > 300,000 ≥ 255,000
    state.empty();
    assertThat(scalable.layerCount()).isEqualTo(1);
    assertThat(scalable.count()).isZero();
  }
}
