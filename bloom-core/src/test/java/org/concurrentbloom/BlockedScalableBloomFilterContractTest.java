package org.concurrentbloom;

import java.io.IOException;
import java.io.InputStream;

/** {@link ScalableBloomFilter} with cache-blocked layers against the shared contract. */
final class BlockedScalableBloomFilterContractTest extends MembershipFilterContractTest {
  @Override
  protected <T> MembershipFilter<T> create(Funnel<? super T> funnel, long expectedInsertions, double fpp) {
    return ScalableBloomFilter.<T>builder(funnel).initialCapacity(expectedInsertions).fpp(fpp).blocked().build();
  }

  @Override
  protected <T> MembershipFilter<T> read(InputStream in, Funnel<? super T> funnel) throws IOException {
    return ScalableBloomFilter.readFrom(in, funnel);
  }
}
