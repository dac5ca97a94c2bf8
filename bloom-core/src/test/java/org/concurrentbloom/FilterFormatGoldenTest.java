package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Freezes format version 2 (docs/FORMAT.md) and hash strategies 1, 4 and 5 (docs/HASHING.md), and checks
 * that version 1 files still load. If this test fails, files written by earlier releases no longer load or
 * answer differently: bump the version instead.
 */
class FilterFormatGoldenTest {
  /**
   * create(stringFunnel, 10, 0.1) with hash strategy 1 (MurmurHash3, the default before strategy 4) after
   * adding "alpha", "beta", "gamma".
   */
  static final String GOLDEN_HEX =
      "43424c4d020101010000000000000040" // magic, version 2, type 1, strategy 1, key type 1 (UTF-8), m = 64
      + "00000003000000000000000a" // k = 3, n = 10
      + "3fb999999999999a" // p = 0.1
      + "0000000000000003" // count = 3
      + "0000000000000008" // payload bytes = 8
      + "80b0380800000004" // the one word: 9 bits, 3 per item
      + "220ae632";

  /** The same filter as release 0.1 wrote it: format version 1, byte 7 reserved (0), no key type. */
  static final String GOLDEN_V1_HEX =
      "43424c4d010101000000000000000040" // magic, version 1, type 1, strategy 1, flags 0, m = 64
      + "00000003000000000000000a" // k = 3, n = 10
      + "3fb999999999999a" // p = 0.1
      + "0000000000000003" // count = 3
      + "0000000000000008" // payload bytes = 8
      + "80b0380800000004" // the one word: 9 bits, 3 per item
      + "4c3405a1";

  /** The same three items in a strategy 4 filter (XXH3-64, strings as UTF-16LE), m = 64, k = 3. */
  static final String GOLDEN_XXH3_HEX =
      "43424c4d020104010000000000000040" // magic, version 2, type 1, strategy 4, key type 1, m = 64
      + "00000003000000000000000a" // k = 3, n = 10
      + "3fb999999999999a" // p = 0.1
      + "0000000000000003" // count = 3
      + "0000000000000008" // payload bytes = 8
      + "001000020401b001" // the one word: other bits than strategy 1's
      + "3fc1249c";

  /** The same three items in a blocked filter of strategy 5: one 512-bit block, k = 19. */
  static final String GOLDEN_BLOCKED_XXH3_HEX =
      "43424c4d020205010000000000000200" // magic, version 2, type 2, strategy 5, key type 1, m = 512
      + "00000013000000000000000a" // k = 19, n = 10
      + "3fb999999999999a" // p = 0.1
      + "0000000000000003" // count = 3
      + "0000000000000040" // payload bytes = 64
      + "8040808002000040" + "1944001010100008" + "1008000000008040" + "0980000090000808" // the 8 words
      + "0811218004000088" + "0820001a20008000" + "0080000500001000" + "8100504090000009"
      + "4f8f64c8";

  /** {@link #goldenWordPairFilter()}'s bytes: strategy 6, what {@code blocked()} builds at p = 0.1. */
  static final String GOLDEN_WORD_PAIR_HEX =
      "43424c4d020206010000000000000200" // magic, version 2, type 2, strategy 6, key type 1, m = 512
      + "0000000a000000000000000a" // k = 10 (strategy 6's most), n = 10
      + "3fb999999999999a" // p = 0.1
      + "0000000000000003" // count = 3
      + "0000000000000040" // payload bytes = 64
      + "4000001000884000" + "0040080400000008" + "0000000000601004" + "0000000000000000" // the 8 words
      + "0000000000000000" + "0000020010220010" + "8500000402000000" + "4103000000004000"
      + "3083f76c";

  static final String[] ITEMS = {"alpha", "beta", "gamma"};

  /** The filter of {@link #GOLDEN_HEX}: strategy 1, pinned, since new filters default to strategy 4. */
  static BloomFilter<CharSequence> goldenFilter() {
    return golden(BloomFilter.builder(Funnels.stringFunnel()).hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE));
  }

  /** The filter of {@link #GOLDEN_XXH3_HEX}. */
  static BloomFilter<CharSequence> goldenXxh3Filter() {
    return golden(BloomFilter.builder(Funnels.stringFunnel()).hashStrategy(HashStrategy.XXH3_64_ENHANCED_DOUBLE));
  }

  /** The filter of {@link #GOLDEN_BLOCKED_XXH3_HEX}. */
  static BloomFilter<CharSequence> goldenWordPairFilter() {
    return golden(BloomFilter.builder(Funnels.stringFunnel()).blocked().hashStrategy(HashStrategy.XXH3_64_WORD_PAIR));
  }

  static BloomFilter<CharSequence> goldenBlockedXxh3Filter() {
    return golden(BloomFilter.builder(Funnels.stringFunnel()).blocked().hashStrategy(HashStrategy.XXH3_64_BLOCKED));
  }

  private static BloomFilter<CharSequence> golden(BloomFilter.Builder<CharSequence> builder) {
    BloomFilter<CharSequence> f = builder.expectedInsertions(10).fpp(0.1).build();
    for (String item : ITEMS) {
      f.add(item);
    }
    return f;
  }

  static byte[] bytesOf(BloomFilter<?> f) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    return out.toByteArray();
  }

  @Test
  void writerProducesTheFrozenBytes() throws IOException {
    assertThat(HexFormat.of().formatHex(bytesOf(goldenFilter()))).isEqualTo(GOLDEN_HEX);
  }

  @Test
  void writerProducesTheFrozenBytesOfStrategiesFourAndFive() throws IOException {
    assertThat(HexFormat.of().formatHex(bytesOf(goldenXxh3Filter()))).isEqualTo(GOLDEN_XXH3_HEX);
    assertThat(HexFormat.of().formatHex(bytesOf(goldenBlockedXxh3Filter()))).isEqualTo(GOLDEN_BLOCKED_XXH3_HEX);
  }

  @Test
  void writerProducesTheFrozenBytesOfStrategySix() throws IOException {
    assertThat(HexFormat.of().formatHex(bytesOf(goldenWordPairFilter()))).isEqualTo(GOLDEN_WORD_PAIR_HEX);
  }

  /**
   * New filters default to strategy 4 (standard) and, at p = 0.1, 6 (blocked), and to 5 (blocked) below
   * p = 0.001: the same bytes as the pinned ones.
   */
  @Test
  void newFiltersDefaultToStrategiesFourAndSix() throws IOException {
    BloomFilter<CharSequence> standard = golden(BloomFilter.builder(Funnels.stringFunnel()));
    BloomFilter<CharSequence> blocked = golden(BloomFilter.builder(Funnels.stringFunnel()).blocked());
    assertThat(HexFormat.of().formatHex(bytesOf(standard))).isEqualTo(GOLDEN_XXH3_HEX);
    assertThat(HexFormat.of().formatHex(bytesOf(blocked))).isEqualTo(GOLDEN_WORD_PAIR_HEX);
    assertThat(BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(10).fpp(0.0009).blocked().build()
        .hashStrategy()).isEqualTo(HashStrategy.XXH3_64_BLOCKED);
  }

  @Test
  void frozenBytesDecodeFieldByFieldAsDocumented() {
    byte[] bytes = HexFormat.of().parseHex(GOLDEN_HEX);
    ByteBuffer b = ByteBuffer.wrap(bytes);
    assertThat(bytes).hasSize(52 + 8 + 4);
    assertThat(new String(bytes, 0, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("CBLM");
    b.position(4);
    assertThat(b.get()).as("version").isEqualTo((byte) 2);
    assertThat(b.get()).as("type").isEqualTo((byte) 1);
    assertThat(b.get()).as("strategy").isEqualTo((byte) 1);
    assertThat(b.get()).as("key type").isEqualTo((byte) KeyType.UTF8_STRING.id());
    assertThat(b.getLong()).as("m").isEqualTo(64);
    assertThat(b.getInt()).as("k").isEqualTo(3);
    assertThat(b.getLong()).as("n").isEqualTo(10);
    assertThat(b.getDouble()).as("p").isEqualTo(0.1);
    assertThat(b.getLong()).as("count").isEqualTo(3);
    assertThat(b.getLong()).as("payload length").isEqualTo(8);
    long word = b.getLong();
    assertThat(Long.bitCount(word)).isBetween(1, 9);
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, 60);
    assertThat(b.getInt()).as("CRC32C").isEqualTo((int) crc.getValue());
  }

  @Test
  void frozenBytesLoadAndAnswerAsTheOriginal() throws IOException {
    assertLoadsAsTheOriginal(GOLDEN_HEX);
  }

  @Test
  void frozenBytesOfStrategiesFourAndFiveLoadAndAnswerAsTheOriginal() throws IOException {
    BloomFilter<CharSequence> standard = assertLoadsAs(GOLDEN_XXH3_HEX, goldenXxh3Filter());
    assertThat(standard.filterType()).isEqualTo(FilterType.STANDARD);
    assertThat(standard.layout().strategy()).isEqualTo(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
    assertThat(List.of(standard.bitSize(), standard.hashFunctions(), standard.count())).containsExactly(64L, 3, 3L);
    BloomFilter<CharSequence> blocked = assertLoadsAs(GOLDEN_BLOCKED_XXH3_HEX, goldenBlockedXxh3Filter());
    assertThat(blocked.filterType()).isEqualTo(FilterType.BLOCKED);
    assertThat(blocked.layout().strategy()).isEqualTo(HashStrategy.XXH3_64_BLOCKED);
    assertThat(List.of(blocked.bitSize(), blocked.hashFunctions(), blocked.count())).containsExactly(512L, 19, 3L);
  }

  /**
   * A strategy 1 and a strategy 4 file of the same items and shape: the header differs only in the
   * strategy byte, the bits differ, and both answer true for every item.
   */
  @Test
  void strategiesOneAndFourSetOtherBitsForTheSameItems() throws IOException {
    byte[] one = HexFormat.of().parseHex(GOLDEN_HEX);
    byte[] four = HexFormat.of().parseHex(GOLDEN_XXH3_HEX);
    assertThat(Arrays.copyOfRange(one, 0, 6)).isEqualTo(Arrays.copyOfRange(four, 0, 6));
    assertThat(Arrays.copyOfRange(one, 7, 52)).isEqualTo(Arrays.copyOfRange(four, 7, 52));
    assertThat(one[6]).isEqualTo((byte) 1);
    assertThat(four[6]).isEqualTo((byte) 4);
    assertThat(Arrays.copyOfRange(one, 52, 60)).isNotEqualTo(Arrays.copyOfRange(four, 52, 60));
    BloomFilter<CharSequence> f1 = load(one);
    BloomFilter<CharSequence> f4 = load(four);
    assertThat(f1.currentWords()).isNotEqualTo(f4.currentWords());
    for (String item : ITEMS) {
      assertThat(f1.mightContain(item)).as("strategy 1: %s", item).isTrue();
      assertThat(f4.mightContain(item)).as("strategy 4: %s", item).isTrue();
    }
    // Many added items: still other bits, still no false negative in either.
    BloomFilter<CharSequence> many1 = BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(2000).fpp(0.01)
        .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build();
    BloomFilter<CharSequence> many4 = BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(2000).fpp(0.01)
        .hashStrategy(HashStrategy.XXH3_64_ENHANCED_DOUBLE).build();
    for (int i = 0; i < 2000; i++) {
      many1.add("item \u00e9\uD83D\uDE00 " + i);
      many4.add("item \u00e9\uD83D\uDE00 " + i);
    }
    BloomFilter<CharSequence> back1 = load(bytesOf(many1));
    BloomFilter<CharSequence> back4 = load(bytesOf(many4));
    assertThat(back1.layout().strategy()).isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
    assertThat(back4.layout().strategy()).isEqualTo(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
    assertThat(back1.currentWords()).isNotEqualTo(back4.currentWords());
    for (int i = 0; i < 2000; i++) {
      assertThat(back1.mightContain("item \u00e9\uD83D\uDE00 " + i)).isTrue();
      assertThat(back4.mightContain("item \u00e9\uD83D\uDE00 " + i)).isTrue();
    }
  }

  @Test
  void versionOneBytesStillLoadAndAnswerAsTheOriginal() throws IOException {
    assertLoadsAsTheOriginal(GOLDEN_V1_HEX);
    // Only byte 4 (version), byte 7 (key type) and the CRC differ.
    byte[] v1 = HexFormat.of().parseHex(GOLDEN_V1_HEX);
    byte[] v2 = HexFormat.of().parseHex(GOLDEN_HEX);
    v1[4] = 2;
    v1[7] = 1;
    assertThat(HexFormat.of().formatHex(FilterFormatRejectionTest.withFixedCrc(v1))).isEqualTo(HexFormat.of().formatHex(v2));
  }

  /** A version 1 file records no key type, so every funnel may read it (as before version 2). */
  @Test
  void versionOneAcceptsAnyFunnel() throws IOException {
    BloomFilter<Long> f = BloomFilter.readFrom(
        new ByteArrayInputStream(HexFormat.of().parseHex(GOLDEN_V1_HEX)), Funnels.longFunnel());
    assertThat(f.bitSize()).isEqualTo(64);
  }

  private static void assertLoadsAsTheOriginal(String hex) throws IOException {
    BloomFilter<CharSequence> f = assertLoadsAs(hex, goldenFilter());
    assertThat(f.layout().strategy()).isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
  }

  private static BloomFilter<CharSequence> load(byte[] bytes) throws IOException {
    return BloomFilter.readFrom(new ByteArrayInputStream(bytes), Funnels.stringFunnel());
  }

  /** The file loads, holds every item, and answers 1000 other probes exactly as {@code fresh} does. */
  private static BloomFilter<CharSequence> assertLoadsAs(String hex, BloomFilter<CharSequence> fresh)
      throws IOException {
    BloomFilter<CharSequence> f = load(HexFormat.of().parseHex(hex));
    for (String item : ITEMS) {
      assertThat(f.mightContain(item)).as(item).isTrue();
    }
    for (int i = 0; i < 1000; i++) {
      assertThat(f.mightContain("probe" + i)).isEqualTo(fresh.mightContain("probe" + i));
    }
    assertThat(f.currentWords()).isEqualTo(fresh.currentWords());
    return f;
  }

  /** The documented probe derivation, recomputed here from scratch, selects the bits the filter set. */
  @Test
  void probePositionsFollowTheDocumentedDerivation() {
    long m = 1_000_003; // deliberately not a multiple of 64
    int k = 5;
    BloomFilter<CharSequence> f = BloomFilter.withShape(Funnels.stringFunnel(), m, k);
    f.add("reproducible");
    long[] h = HashingSinkTest.hashOf("reproducible".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    java.math.BigInteger two64 = java.math.BigInteger.ONE.shiftLeft(64);
    java.math.BigInteger bm = java.math.BigInteger.valueOf(m);
    long x = new java.math.BigInteger(Long.toUnsignedString(h[0])).multiply(bm).divide(two64).longValueExact();
    long y = new java.math.BigInteger(Long.toUnsignedString(h[1])).multiply(bm).divide(two64).longValueExact();
    long[] expected = new long[Sizing.wordsFor(m)];
    for (int i = 1; i <= k; i++) {
      expected[(int) (x / 64)] |= 1L << (x % 64);
      x = (x + y) % m;
      y = (y + i) % m;
    }
    assertThat(f.currentWords()).isEqualTo(expected);
  }
}
