package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Which hash strategy each subclass of the contract suite puts under test: the default subclasses the
 * defaults of new filters (4 for standard filters and layers, 6 for blocked filters, 5 for blocked
 * layers), Xxh3Blocked strategy 5, the Murmur3 ones the strategies of older files (1 and 2). If a default changed, or a subclass stopped building what its
 * name says, the contract would silently run twice on one strategy and never on the other.
 */
class ContractSuiteStrategiesTest {
  private static final Funnel<CharSequence> STRINGS = Funnels.stringFunnel();

  @Test
  void bloomFilterSubclassesTestTheirStrategies() {
    assertThat(new StandardBloomFilterContractTest().create(STRINGS, 100, 0.01).hashStrategy())
        .isEqualTo(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
    assertThat(new BlockedBloomFilterContractTest().create(STRINGS, 100, 0.01).hashStrategy())
        .isEqualTo(HashStrategy.XXH3_64_WORD_PAIR);
    assertThat(new Xxh3BlockedBloomFilterContractTest().create(STRINGS, 100, 0.01).hashStrategy())
        .isEqualTo(HashStrategy.XXH3_64_BLOCKED);
    assertThat(new Murmur3StandardBloomFilterContractTest().create(STRINGS, 100, 0.01).hashStrategy())
        .isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
    assertThat(new Murmur3BlockedBloomFilterContractTest().create(STRINGS, 100, 0.01).hashStrategy())
        .isEqualTo(HashStrategy.MURMUR3_128_BLOCKED);
  }

  @Test
  void scalableSubclassesTestTheirStrategies() {
    assertThat(strategyOf(new ScalableBloomFilterContractTest().create(STRINGS, 100, 0.01)))
        .isEqualTo(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
    assertThat(strategyOf(new BlockedScalableBloomFilterContractTest().create(STRINGS, 100, 0.01)))
        .isEqualTo(HashStrategy.XXH3_64_BLOCKED);
    assertThat(strategyOf(new Murmur3ScalableBloomFilterContractTest().create(STRINGS, 100, 0.01)))
        .isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
  }

  private static HashStrategy strategyOf(MembershipFilter<CharSequence> f) {
    assertThat(f).isInstanceOf(ScalableBloomFilter.class);
    return ((ScalableBloomFilter<CharSequence>) f).hashStrategy();
  }
}
