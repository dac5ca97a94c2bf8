package org.concurrentbloom;

/** The standard (one bit array, k probes anywhere) layout against the shared contract. */
final class StandardBloomFilterContractTest extends BloomFilterContractTest {
  @Override
  protected <T> BloomFilter<T> create(Funnel<? super T> funnel, long expectedInsertions, double fpp) {
    return BloomFilter.create(funnel, expectedInsertions, fpp);
  }
}
