package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The blocked layout with hash strategy 2 (MurmurHash3 x64 128, probes in one 512-bit block), the
 * default before strategy 5, against the shared contract.
 */
final class Murmur3BlockedBloomFilterContractTest extends BloomFilterContractTest {
  @Override
  protected <T> BloomFilter<T> create(Funnel<? super T> funnel, long expectedInsertions, double fpp) {
    return BloomFilter.<T>builder(funnel).expectedInsertions(expectedInsertions).fpp(fpp).blocked()
        .hashStrategy(HashStrategy.MURMUR3_128_BLOCKED).build();
  }

  @Test
  void filtersUnderTestHashWithStrategy2() {
    assertThat(create(Funnels.stringFunnel(), 100, 0.01).hashStrategy())
        .isEqualTo(HashStrategy.MURMUR3_128_BLOCKED);
  }
}
