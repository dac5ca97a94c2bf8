package org.concurrentbloom;

/** The cache-blocked layout as {@code blocked()} builds it (strategy 6, two words per item) against the shared contract. */
final class BlockedBloomFilterContractTest extends BloomFilterContractTest {
  @Override
  protected <T> BloomFilter<T> create(Funnel<? super T> funnel, long expectedInsertions, double fpp) {
    return BloomFilter.<T>builder(funnel).expectedInsertions(expectedInsertions).fpp(fpp).blocked().build();
  }
}
