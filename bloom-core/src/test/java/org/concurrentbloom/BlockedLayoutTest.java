package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BlockedLayoutTest {

  @Test
  void everyItemsBitsLieInOneBlock() {
    BloomFilter<CharSequence> f = BloomFilter.withLayout(Funnels.stringFunnel(), new BlockedLayout(512 * 1000, 8));
    for (int i = 0; i < 200; i++) {
      BloomFilter<CharSequence> single = f.copy();
      single.clear();
      single.add("item" + i);
      long[] words = single.currentWords();
      int firstBlock = -1;
      int setBits = 0;
      for (int w = 0; w < words.length; w++) {
        if (words[w] != 0) {
          if (firstBlock < 0) {
            firstBlock = w / 8;
          }
          assertThat(w / 8).as("item%d word %d", i, w).isEqualTo(firstBlock);
          setBits += Long.bitCount(words[w]);
        }
      }
      assertThat(setBits).isBetween(1, 8);
    }
  }

  /** Published values (Putze, Sanders, Singler 2007 model; RocksDB FastLocalBloom reports 0.957%). */
  @ParameterizedTest
  @CsvSource({"10, 0.00957", "12, 0.00407", "16, 0.000825"})
  void poissonModelMatchesPublishedFigures(int bitsPerKey, double expected) {
    long n = 1_000_000;
    long blocks = n * bitsPerKey / 512;
    double best = 1;
    for (int k = 1; k < 30; k++) {
      best = Math.min(best, Sizing.blockedFpp(blocks, k, n));
    }
    assertThat(best).isCloseTo(expected, within(expected * 0.005));
  }

  @ParameterizedTest
  @CsvSource({"10000, 0.1", "1000000, 0.01", "10000000, 0.001", "1000, 0.0001"})
  void sizingIsTheSmallestBlockCountThatMeetsTheTarget(long n, double p) {
    long[] shape = Sizing.blockedShape(n, p);
    long blocks = shape[0] / 512;
    assertThat(shape[0] % 512).isZero();
    assertThat(Sizing.blockedFpp(blocks, (int) shape[1], n)).isLessThanOrEqualTo(p);
    for (int k = 1; k <= Sizing.MAX_BLOCKED_HASH_FUNCTIONS; k++) {
      assertThat(Sizing.blockedFpp(blocks - 1, k, n)).as("k=%d with one block fewer", k).isGreaterThan(p);
    }
    // Memory: at most 1.3 times the standard layout for the same n and p.
    assertThat((double) shape[0] / Sizing.optimalBits(n, p)).isBetween(1.0, 1.3);
  }

  /**
   * Strategy 2 (MurmurHash3), as built before strategy 5; 5, the default before 6; and 6, the default of
   * new blocked filters at p = 1% (null: the builder's choice).
   */
  @Test
  void blockedFilesRoundTripAndAreNotCompatibleWithStandardOnes() throws IOException {
    for (HashStrategy strategy : new HashStrategy[] {HashStrategy.MURMUR3_128_BLOCKED, HashStrategy.XXH3_64_BLOCKED,
        null}) {
      BloomFilter.Builder<CharSequence> builder = BloomFilter.<CharSequence>builder(Funnels.stringFunnel())
          .expectedInsertions(1000).fpp(0.01).blocked();
      BloomFilter<CharSequence> blocked = (strategy == null ? builder : builder.hashStrategy(strategy)).build();
      blocked.add("x");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      blocked.writeTo(out);
      byte[] bytes = out.toByteArray();
      assertThat(bytes[5]).as("type").isEqualTo((byte) 2);
      assertThat(bytes[6]).as("strategy").isEqualTo((byte) (strategy == null ? 6 : strategy.id()));
      BloomFilter<CharSequence> loaded = BloomFilter.readFrom(new ByteArrayInputStream(bytes), Funnels.stringFunnel());
      assertThat(loaded.filterType()).isEqualTo(FilterType.BLOCKED);
      assertThat(loaded.mightContain("x")).isTrue();
      assertThat(loaded.isCompatible(blocked)).isTrue();

      BloomFilter<CharSequence> standard = BloomFilter.withShape(Funnels.stringFunnel(), blocked.bitSize(),
          blocked.hashFunctions());
      assertThat(standard.isCompatible(blocked)).isFalse();
      assertThatThrownBy(() -> standard.merge(blocked)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("layout=blocked").hasMessageContaining("layout=standard");
    }
  }

  @Test
  void blockedBitCountMustBeWholeBlocks() {
    assertThatThrownBy(() -> new BlockedLayout(1000, 3)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("multiple of 512, was 1000");
  }
}
