package org.concurrentbloom;

import java.io.IOException;
import java.io.InputStream;

/** {@link CountingBloomFilter} against the contract every {@link MembershipFilter} shares. */
final class CountingBloomFilterContractTest extends MembershipFilterContractTest {
  @Override
  protected <T> CountingBloomFilter<T> create(Funnel<? super T> funnel, long expectedInsertions, double fpp) {
    return CountingBloomFilter.create(funnel, expectedInsertions, fpp);
  }

  @Override
  protected <T> CountingBloomFilter<T> read(InputStream in, Funnel<? super T> funnel) throws IOException {
    return CountingBloomFilter.readFrom(in, funnel);
  }
}
