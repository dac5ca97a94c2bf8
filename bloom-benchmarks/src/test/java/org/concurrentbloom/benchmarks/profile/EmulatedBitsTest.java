package org.concurrentbloom.benchmarks.profile;

import static org.assertj.core.api.Assertions.assertThat;

import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.HashStrategy;
import org.concurrentbloom.benchmarks.BenchmarkDefaults;
import org.concurrentbloom.benchmarks.KeyType;
import org.concurrentbloom.benchmarks.QueryKeys;
import org.concurrentbloom.internal.BitIndexer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EmulatedBitsTest {
  private static final int N = 20_000;

  @ParameterizedTest
  @EnumSource(KeyType.class)
  void answersExactlyAsTheRealFilterOnTheBenchmarkQueries(KeyType type) {
    // The emulation places strategy 1's bits (BitIndexer), so it is compared with a strategy-1 filter.
    BloomFilter<Object> filter = BloomFilter.builder(ProfileStates.funnel(type)).expectedInsertions(N)
        .fpp(BenchmarkDefaults.FPP).hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
    ProfileStates.fill(filter, type, N);
    BitIndexer<Object> indexer = BitIndexer.sized(ProfileStates.funnel(type), N, BenchmarkDefaults.FPP);
    long[] scratch = new long[Math.max(2, indexer.hashFunctions())];
    EmulatedBits bits = new EmulatedBits(indexer.bitSize(), indexer.hashFunctions());
    for (long i = 0; i < N; i++) {
      indexer.hash(type.key(i), scratch);
      bits.add(indexer, scratch[0], scratch[1], scratch);
    }

    Object[] queries = QueryKeys.halfPresent(type, N, 50_000);
    int present = 0;
    for (Object query : queries) {
      indexer.hash(query, scratch);
      boolean expected = filter.mightContain(query);
      assertThat(bits.test(scratch[0], scratch[1])).as("%s", query).isEqualTo(expected);
      present += expected ? 1 : 0;
    }
    // half present, plus about 1% of the absent half as false positives
    assertThat(present).isBetween(25_000, 25_000 + 600);
  }

  @Test
  void anEmptyFilterHoldsNothing() {
    EmulatedBits bits = new EmulatedBits(1 << 10, 7);
    assertThat(bits.test(123, 456)).isFalse();
  }
}
