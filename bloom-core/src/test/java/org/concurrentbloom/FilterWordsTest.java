package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.concurrentbloom.internal.FilterWords;
import org.junit.jupiter.api.Test;

/** Words out of a filter and back in give the same filter, byte for byte in the file format. */
class FilterWordsTest {

  private static byte[] fileBytes(BloomFilter<?> f) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    return out.toByteArray();
  }

  @Test
  void roundTripIsTheSameFilter() throws IOException {
    // FilterWords.standardFilter builds strategy 1 (MurmurHash3) filters.
    BloomFilter<CharSequence> f = BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(2_000).fpp(0.01)
        .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
    for (int i = 0; i < 1_500; i++) {
      f.add("k" + i);
    }
    long[] words = FilterWords.copyOf(f);
    assertThat(words).isEqualTo(f.currentWords()).isNotSameAs(f.currentWords());
    BloomFilter<CharSequence> back = FilterWords.standardFilter(Funnels.stringFunnel(), f.bitSize(),
        f.hashFunctions(), f.expectedInsertions(), f.fpp(), f.count(), words);
    assertThat(fileBytes(back)).isEqualTo(fileBytes(f));
    assertThat(back.mightContain("k7")).isTrue();
  }

  @Test
  void rejectsInconsistentInputNamingTheValue() {
    assertThatThrownBy(() -> FilterWords.standardFilter(Funnels.longFunnel(), 100, 3, 10, 0.01, 0, new long[1]))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs 2 words");
    assertThatThrownBy(() -> FilterWords.standardFilter(Funnels.longFunnel(), 100, 3, 10, 0.01, 0,
        new long[] {0, 1L << 36})).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("past m=100");
    assertThatThrownBy(() -> FilterWords.standardFilter(Funnels.longFunnel(), 128, 3, 10, 0.01, -1, new long[2]))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was -1");
    assertThatThrownBy(() -> FilterWords.standardFilter(Funnels.longFunnel(), 128, 3, 0, 0.01, 0, new long[2]))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 0");
    assertThatThrownBy(() -> FilterWords.standardFilter(Funnels.longFunnel(), 128, 0, 10, 0.01, 0, new long[2]))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 0");
  }
}
