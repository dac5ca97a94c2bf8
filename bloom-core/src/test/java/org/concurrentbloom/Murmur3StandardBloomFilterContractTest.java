package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The standard layout with hash strategy 1 (MurmurHash3 x64 128, enhanced double hashing), the default
 * before strategy 4, against the shared contract: files and filters of strategy 1 must keep working.
 */
final class Murmur3StandardBloomFilterContractTest extends BloomFilterContractTest {
  @Override
  protected <T> BloomFilter<T> create(Funnel<? super T> funnel, long expectedInsertions, double fpp) {
    return BloomFilter.<T>builder(funnel).expectedInsertions(expectedInsertions).fpp(fpp)
        .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
  }

  @Test
  void filtersUnderTestHashWithStrategy1() {
    assertThat(create(Funnels.stringFunnel(), 100, 0.01).hashStrategy())
        .isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
  }
}
