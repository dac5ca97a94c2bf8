package org.concurrentbloom;

import java.io.IOException;
import java.io.InputStream;

/**
 * {@link ScalableBloomFilter} against the contract every filter shares, with the defaults (growth
 * factor 2, tightening ratio 0.9). Its expected insertions are its initial capacity, so at the
 * contract's loads the filter is at or just past its first layer's capacity.
 */
final class ScalableBloomFilterContractTest extends MembershipFilterContractTest {
  @Override
  protected <T> MembershipFilter<T> create(Funnel<? super T> funnel, long expectedInsertions, double fpp) {
    return ScalableBloomFilter.create(funnel, expectedInsertions, fpp);
  }

  @Override
  protected <T> MembershipFilter<T> read(InputStream in, Funnel<? super T> funnel) throws IOException {
    return ScalableBloomFilter.readFrom(in, funnel);
  }
}
