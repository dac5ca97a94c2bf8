package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The numbers of docs/HASHING.md, section 7 (strategies 4 and 5), hard-coded so that the document and the
 * library cannot drift apart: the hash test vectors, the key bytes of a string, and the bits that the
 * worked examples say one add sets.
 */
final class Xxh3DocExamplesTest {
  private static final String KEY = "Grüße aus Zürich";
  private static final long KEY_H1 = 0xb64776c76258effbL;
  private static final long KEY_H2 = 0x4de23463ef897d6bL;

  @Test
  void hashTestVectors() {
    assertVector(new byte[0], 0x2d06800538d394c2L, 0x59b0ed710b28abeeL);
    assertThat(Xxh3Keys.chars("")).isEqualTo(0x2d06800538d394c2L);
    assertThat(Xxh3Keys.chars("alpha")).isEqualTo(0x3fd17ca9227bb501L);
    assertThat(Xxh3Keys.second(0x3fd17ca9227bb501L)).isEqualTo(0x940d3ca2d9ed6cdaL);
    assertThat(Xxh3Keys.chars(KEY)).isEqualTo(KEY_H1);
    assertThat(Xxh3Keys.second(KEY_H1)).isEqualTo(KEY_H2);
    assertThat(Xxh3Keys.chars("a\uD83D\uDE00")).isEqualTo(0x6012c09d0eb4447bL);
    assertThat(Xxh3Keys.ofLong(42L)).isEqualTo(0xd5a6f8c838df27c8L);
    assertThat(Xxh3Keys.second(0xd5a6f8c838df27c8L)).isEqualTo(0xf0279f3d3a3490bcL);
    assertVector(new byte[] {42, 0, 0, 0}, 0x2132b64814a1ad5dL, 0x8df1589c595eacf9L);
  }

  @Test
  void aStringsKeyBytesAreItsUtf16LittleEndianUnits() {
    byte[] units = KEY.getBytes(StandardCharsets.UTF_16LE);
    assertThat(units).hasSize(32);
    assertThat(units).startsWith(0x47, 0x00, 0x72, 0x00, 0xfc, 0x00, 0xdf, 0x00);
    assertThat(Xxh3Keys.bytes(units, 0, units.length)).isEqualTo(KEY_H1);
  }

  @Test
  void standardWorkedExample() {
    BloomFilter<CharSequence> f = BloomFilter.create(Funnels.stringFunnel(), 10_000, 0.01);
    assertThat(f.hashStrategy()).isSameAs(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
    assertThat(f.bitSize()).isEqualTo(95_872);
    assertThat(f.hashFunctions()).isEqualTo(7);
    assertThat(Probes.reduce(KEY_H1, 95_872)).isEqualTo(68_263);
    assertThat(Probes.reduce(KEY_H2, 95_872)).isEqualTo(29_167);
    f.add(KEY);
    assertThat(setBits(f.currentWords())).containsExactly(1_558L, 22_374L, 30_726L, 51_556L, 59_896L, 68_263L,
        89_069L);
  }

  @Test
  void blockedWorkedExample() {
    BloomFilter<CharSequence> f = BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(10_000).fpp(0.01)
        .blocked().hashStrategy(HashStrategy.XXH3_64_BLOCKED).build();
    assertThat(f.hashStrategy()).isSameAs(HashStrategy.XXH3_64_BLOCKED);
    assertThat(f.bitSize()).isEqualTo(99_328);
    assertThat(f.hashFunctions()).isEqualTo(6);
    assertThat(Probes.reduce(KEY_H1, 99_328 / 512)).isEqualTo(138);
    f.add(KEY);
    assertThat(setBits(f.currentWords())).containsExactly(70_669L, 70_811L, 70_952L, 71_040L, 71_067L, 71_159L);
  }

  /** HASHING.md §8's worked example: strategy 6, what {@code blocked()} builds at p = 1%. */
  @Test
  void wordPairWorkedExample() {
    BloomFilter<CharSequence> f =
        BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(10_000).fpp(0.01).blocked().build();
    assertThat(f.hashStrategy()).isSameAs(HashStrategy.XXH3_64_WORD_PAIR);
    assertThat(f.bitSize()).isEqualTo(102_912);
    assertThat(f.hashFunctions()).isEqualTo(6);
    assertThat(Probes.reduce(KEY_H1, 102_912 / 512)).isEqualTo(143);
    long h1 = KEY_H1; // a variable: the product overflows on purpose (mod 2^64), which a constant may not
    assertThat(h1 * 0x9E3779B97F4A7C15L).isEqualTo(0x6571ee2409174397L);
    f.add(KEY);
    assertThat(setBits(f.currentWords())).containsExactly(73_415L, 73_431L, 73_433L, 73_536L, 73_545L, 73_582L);
  }

  private static void assertVector(byte[] bytes, long h1, long h2) {
    assertThat(Xxh3Keys.bytes(bytes, 0, bytes.length)).isEqualTo(h1);
    assertThat(Xxh3Keys.second(h1)).isEqualTo(h2);
  }

  private static List<Long> setBits(long[] words) {
    List<Long> bits = new ArrayList<>();
    for (int w = 0; w < words.length; w++) {
      for (long rest = words[w]; rest != 0; rest &= rest - 1) {
        bits.add(64L * w + Long.numberOfTrailingZeros(rest));
      }
    }
    return bits;
  }
}
