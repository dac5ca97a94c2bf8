package org.concurrentbloom.benchmarks.strategies;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The strategies differ only in synchronisation: the same keys must set the same bits in all four. */
class StrategiesAgreeTest {
  @Test
  void everyStrategyGivesTheSameAnswersIncludingTheSameFalsePositives() {
    Map<Strategy, List<Integer>> positives = new TreeMap<>();
    for (Strategy strategy : Strategy.values()) {
      ConcurrentBits bits = strategy.create(5_000, 0.01);
      for (int i = 0; i < 5_000; i++) {
        bits.add(ConcurrentBitsContract.h1(i), ConcurrentBitsContract.h2(i));
      }
      List<Integer> hits = new ArrayList<>();
      for (int i = 5_000; i < 105_000; i++) {
        if (bits.mightContain(ConcurrentBitsContract.h1(i), ConcurrentBitsContract.h2(i))) {
          hits.add(i);
        }
      }
      positives.put(strategy, hits);
    }
    List<Integer> reference = positives.get(Strategy.SYNCHRONIZED);
    assertThat(reference).isNotEmpty();
    assertThat(positives.values()).allSatisfy(hits -> assertThat(hits).isEqualTo(reference));
  }

  @Test
  void sizingFollowsTheStandardFormulas() {
    // m = ceil(-n ln p / ln^2 2) = 9,585,059 for n = 1M, p = 1%, rounded up to 64: 9,585,088; k = 7.
    assertThat(Probes.bits(1_000_000, 0.01)).isEqualTo(9_585_088);
    assertThat(Probes.hashFunctions(0.01)).isEqualTo(7);
  }
}
