package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/**
 * {@link ScalableBloomFilter} whose layers are standard ones of hash strategy 1 (the layers' default
 * before strategy 4) against the shared contract, with the default growth factor and tightening ratio.
 */
final class Murmur3ScalableBloomFilterContractTest extends MembershipFilterContractTest {
  @Override
  protected <T> ScalableBloomFilter<T> create(Funnel<? super T> funnel, long expectedInsertions, double fpp) {
    return ScalableBloomFilter.<T>builder(funnel).initialCapacity(expectedInsertions).fpp(fpp)
        .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
  }

  @Override
  protected <T> MembershipFilter<T> read(InputStream in, Funnel<? super T> funnel) throws IOException {
    return ScalableBloomFilter.readFrom(in, funnel);
  }

  @Test
  void layersUnderTestHashWithStrategy1() {
    ScalableBloomFilter<Integer> f = create(Funnels.integerFunnel(), 100, 0.01);
    for (int i = 0; i < 1_000; i++) { // several layers
      f.add(i);
    }
    assertThat(f.layerCount()).isGreaterThan(1);
    assertThat(f.hashStrategy()).isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
  }
}
