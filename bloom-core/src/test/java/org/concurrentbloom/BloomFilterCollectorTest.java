package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Collector;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** {@link BloomFilter#toBloomFilter}: Guava's stream collector. */
class BloomFilterCollectorTest {
  @Test
  void aParallelStreamCollectsIntoTheFilterASequentialLoopBuilds() {
    BloomFilter<CharSequence> collected = IntStream.range(0, 200_000).parallel()
        .mapToObj(FalsePositiveRateTest::insertedKey)
        .collect(BloomFilter.toBloomFilter(Funnels.stringFunnel(), 200_000, 0.01));
    BloomFilter<CharSequence> looped = BloomFilter.create(Funnels.stringFunnel(), 200_000, 0.01);
    for (int i = 0; i < 200_000; i++) {
      looped.add(FalsePositiveRateTest.insertedKey(i));
    }
    assertThat(collected).isEqualTo(looped); // the same bits: no add lost to the parallel stream
    assertThat(collected.expectedInsertions()).isEqualTo(200_000);
    assertThat(collected.fpp()).isEqualTo(0.01);
  }

  @Test
  void itIsConcurrentAndUnorderedLikeGuavas() {
    Collector<CharSequence, ?, BloomFilter<CharSequence>> c =
        BloomFilter.toBloomFilter(Funnels.stringFunnel(), 10, 0.01);
    assertThat(c.characteristics()).contains(Collector.Characteristics.CONCURRENT,
        Collector.Characteristics.UNORDERED);
    assertThat(com.google.common.hash.BloomFilter.toBloomFilter(
        com.google.common.hash.Funnels.unencodedCharsFunnel(), 10, 0.01).characteristics())
        .isEqualTo(c.characteristics());
  }

  @Test
  void badArgumentsAreRefusedWhenTheCollectorIsMadeNamingTheValue() {
    assertThatThrownBy(() -> BloomFilter.toBloomFilter(Funnels.stringFunnel(), 0, 0.01))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 0");
    assertThatThrownBy(() -> BloomFilter.toBloomFilter(Funnels.stringFunnel(), 10, 1.5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 1.5");
    assertThatThrownBy(() -> BloomFilter.toBloomFilter(null, 10, 0.01))
        .isInstanceOf(NullPointerException.class);
  }
}
