package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The blocked layout with hash strategy 5 (XXH3-64, k probes anywhere in one 512-bit block): the blocked
 * default before strategy 6, and still the default below p = 0.001. Against the shared contract.
 */
final class Xxh3BlockedBloomFilterContractTest extends BloomFilterContractTest {
  @Override
  protected <T> BloomFilter<T> create(Funnel<? super T> funnel, long expectedInsertions, double fpp) {
    return BloomFilter.<T>builder(funnel).expectedInsertions(expectedInsertions).fpp(fpp).blocked()
        .hashStrategy(HashStrategy.XXH3_64_BLOCKED).build();
  }

  @Test
  void filtersUnderTestHashWithStrategy5() {
    assertThat(create(Funnels.stringFunnel(), 100, 0.01).hashStrategy()).isEqualTo(HashStrategy.XXH3_64_BLOCKED);
  }
}
