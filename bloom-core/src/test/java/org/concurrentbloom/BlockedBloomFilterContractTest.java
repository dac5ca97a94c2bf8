package org.concurrentbloom;

/** The cache-blocked layout against the shared contract. */
final class BlockedBloomFilterContractTest extends BloomFilterContractTest {
  @Override
  protected <T> BloomFilter<T> create(Funnel<? super T> funnel, long expectedInsertions, double fpp) {
    return BloomFilter.<T>builder(funnel).expectedInsertions(expectedInsertions).fpp(fpp).blocked().build();
  }
}
