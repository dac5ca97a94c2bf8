package org.concurrentbloom;

/** The Guava-compatible layout against the shared contract. */
final class GuavaLayoutContractTest extends BloomFilterContractTest {
  @Override
  protected <T> BloomFilter<T> create(Funnel<? super T> funnel, long expectedInsertions, double fpp) {
    return BloomFilter.<T>builder(funnel).expectedInsertions(expectedInsertions).fpp(fpp).guavaCompatible().build();
  }
}
