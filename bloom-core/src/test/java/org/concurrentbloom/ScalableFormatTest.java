package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Freezes filter type 5 (docs/FORMAT.md, "Type 5: scalable") and checks that every way such a file can
 * be wrong fails with an IOException naming the problem. If the golden test fails, files written by
 * earlier releases no longer load or answer differently: that needs a new format version.
 */
class ScalableFormatTest {
  /**
   * create(stringFunnel, 4, 0.1) with layer strategy 1 (MurmurHash3, the default before strategy 4) after
   * adding the five {@link #ITEMS}: layer 0 full, layer 1 with one.
   */
  static final String GOLDEN_HEX =
      "43424c4d02050101" // magic, version 2, type 5, layer strategy 1, key type 1 (UTF-8)
      + "0000000000000004" // n0 = 4
      + "3fb999999999999a" // p = 0.1
      + "00000002" // s = 2
      + "3feccccccccccccd" // r = 0.9
      + "0000000000000000" // memory cap: none
      + "00000002" // L = 2 layers
      // layer 0: a type 1 record of version 2, m = 64, k = 7, n = 4, p = 0.1 * 0.1, count 4, 8 payload bytes
      + "43424c4d020101010000000000000040" + "00000007" + "0000000000000004" + "3f847ae147ae147a"
      + "0000000000000004" + "0000000000000008" + "46158561dc056902" + "72e050cd"
      // layer 1: m = 128, k = 7, n = 8, p = 0.1 * 0.1 * 0.9, count 1, 16 payload bytes
      + "43424c4d020101010000000000000080" + "00000007" + "0000000000000008" + "3f826e978d4fdf3b"
      + "0000000000000001" + "0000000000000010" + "0000440000004100" + "0000004002000080" + "cbdf7108"
      + "bb698c56"; // CRC32C of the 184 bytes before it

  /** The same filter in format version 1 (byte 7 reserved, 0, in the header and in every layer). */
  static final String GOLDEN_V1_HEX =
      "43424c4d01050100" // magic, version 1, type 5, layer strategy 1, flags 0
      + "0000000000000004" // n0 = 4
      + "3fb999999999999a" // p = 0.1
      + "00000002" // s = 2
      + "3feccccccccccccd" // r = 0.9
      + "0000000000000000" // memory cap: none
      + "00000002" // L = 2 layers
      // layer 0: a type 1 record, m = 64, k = 7, n = 4, p = 0.1 * 0.1, count 4, 8 payload bytes
      + "43424c4d010101000000000000000040" + "00000007" + "0000000000000004" + "3f847ae147ae147a"
      + "0000000000000004" + "0000000000000008" + "46158561dc056902" + "1cdeb35e"
      // layer 1: m = 128, k = 7, n = 8, p = 0.1 * 0.1 * 0.9, count 1, 16 payload bytes
      + "43424c4d010101000000000000000080" + "00000007" + "0000000000000008" + "3f826e978d4fdf3b"
      + "0000000000000001" + "0000000000000010" + "0000440000004100" + "0000004002000080" + "9f158a42"
      + "6fbdb2d8"; // CRC32C of the 184 bytes before it
  /** The same filter with layer strategy 4 (XXH3-64, strings as UTF-16LE): the same shapes, other bits. */
  static final String GOLDEN_XXH3_HEX =
      "43424c4d02050401" // magic, version 2, type 5, layer strategy 4, key type 1 (UTF-8)
      + "0000000000000004" // n0 = 4
      + "3fb999999999999a" // p = 0.1
      + "00000002" // s = 2
      + "3feccccccccccccd" // r = 0.9
      + "0000000000000000" // memory cap: none
      + "00000002" // L = 2 layers
      // layer 0: a type 1 record of strategy 4, m = 64, k = 7, n = 4, p = 0.1 * 0.1, count 4, 8 payload bytes
      + "43424c4d020104010000000000000040" + "00000007" + "0000000000000004" + "3f847ae147ae147a"
      + "0000000000000004" + "0000000000000008" + "84db6ad0a600b484" + "507f249f"
      // layer 1: strategy 4, m = 128, k = 7, n = 8, p = 0.1 * 0.1 * 0.9, count 1, 16 payload bytes
      + "43424c4d020104010000000000000080" + "00000007" + "0000000000000008" + "3f826e978d4fdf3b"
      + "0000000000000001" + "0000000000000010" + "8000000800001000" + "0200020008004000" + "ef968148"
      + "d398f80c"; // CRC32C of the 184 bytes before it
  static final String[] ITEMS = {"apple", "banana", "cherry", "damson", "elder"};
  /** Where layer 1's record starts, and its length. */
  private static final int LAYER1 = 48 + 64;
  private static final int LAYER1_BYTES = 72;

  /** The filter of {@link #GOLDEN_HEX}: strategy 1, pinned, since new filters default to strategy 4. */
  static ScalableBloomFilter<CharSequence> goldenFilter() {
    return golden(ScalableBloomFilter.builder(Funnels.stringFunnel())
        .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE));
  }

  /** The filter of {@link #GOLDEN_XXH3_HEX}. */
  static ScalableBloomFilter<CharSequence> goldenXxh3Filter() {
    return golden(ScalableBloomFilter.builder(Funnels.stringFunnel()).hashStrategy(HashStrategy.XXH3_64_ENHANCED_DOUBLE));
  }

  private static ScalableBloomFilter<CharSequence> golden(ScalableBloomFilter.Builder<CharSequence> builder) {
    ScalableBloomFilter<CharSequence> f = builder.initialCapacity(4).fpp(0.1).build();
    for (String item : ITEMS) {
      f.add(item);
    }
    return f;
  }

  private static byte[] golden() {
    return HexFormat.of().parseHex(GOLDEN_HEX);
  }

  private static ScalableBloomFilter<CharSequence> load(byte[] bytes) throws IOException {
    return ScalableBloomFilter.readFrom(new ByteArrayInputStream(bytes), Funnels.stringFunnel());
  }

  /** The file with the overall CRC (its last four bytes) recomputed. */
  private static byte[] fixed(byte[] bytes) {
    return FilterFormatRejectionTest.withFixedCrc(bytes);
  }

  /** The file with layer 1's own CRC and then the overall CRC recomputed. */
  private static byte[] fixedWithLayer1(byte[] bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, LAYER1, LAYER1_BYTES - 4);
    ByteBuffer.wrap(bytes).putInt(LAYER1 + LAYER1_BYTES - 4, (int) crc.getValue());
    return fixed(bytes);
  }

  @Test
  void writerProducesTheFrozenBytes() throws IOException {
    ScalableBloomFilter<CharSequence> f = goldenFilter();
    assertThat(f.layerCount()).isEqualTo(2);
    assertThat(HexFormat.of().formatHex(ScalableBloomFilterTest.bytes(f))).isEqualTo(GOLDEN_HEX);
  }

  @Test
  void writerProducesTheFrozenBytesOfStrategyFour() throws IOException {
    ScalableBloomFilter<CharSequence> f = goldenXxh3Filter();
    assertThat(f.layerCount()).isEqualTo(2);
    assertThat(HexFormat.of().formatHex(ScalableBloomFilterTest.bytes(f))).isEqualTo(GOLDEN_XXH3_HEX);
    // Strategy 4 is the default of new scalable filters: the same bytes unpinned.
    ScalableBloomFilter<CharSequence> unpinned = golden(ScalableBloomFilter.builder(Funnels.stringFunnel()));
    assertThat(HexFormat.of().formatHex(ScalableBloomFilterTest.bytes(unpinned))).isEqualTo(GOLDEN_XXH3_HEX);
  }

  @Test
  void frozenBytesOfStrategyFourLoadAndAnswerAsTheOriginal() throws IOException {
    ScalableBloomFilter<CharSequence> f = load(HexFormat.of().parseHex(GOLDEN_XXH3_HEX));
    ScalableBloomFilter<CharSequence> fresh = goldenXxh3Filter();
    assertThat(f.hashStrategy()).isEqualTo(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
    assertThat(f.layerStats()).isEqualTo(fresh.layerStats());
    for (String item : ITEMS) {
      assertThat(f.mightContain(item)).isTrue();
    }
    for (int i = 0; i < 1000; i++) {
      assertThat(f.mightContain("probe" + i)).isEqualTo(fresh.mightContain("probe" + i));
    }
    // The same items and shapes as the strategy 1 file: only the strategy bytes, the bits and the CRCs differ.
    byte[] one = golden();
    byte[] four = HexFormat.of().parseHex(GOLDEN_XXH3_HEX);
    assertThat(four).hasSameSizeAs(one);
    assertThat(Arrays.copyOfRange(four, 7, 48 + 6)).isEqualTo(Arrays.copyOfRange(one, 7, 48 + 6));
    assertThat(Arrays.copyOfRange(four, 48 + 52, 48 + 60)).isNotEqualTo(Arrays.copyOfRange(one, 48 + 52, 48 + 60));
    for (String item : ITEMS) {
      assertThat(load(one).mightContain(item)).isTrue();
    }
  }

  /** ScalableFormat.checkLayer: every layer has the header's strategy, not merely the header's type. */
  @Test
  void layersOfAnotherStrategyThanTheHeaderAreRejected() {
    byte[] fourOverOne = golden();
    fourOverOne[6] = (byte) HashStrategy.XXH3_64_ENHANCED_DOUBLE.id();
    assertRejected(fixed(fourOverOne), "layer 0 has hash strategy 1, but the header says every layer has strategy 4");
    byte[] oneOverFour = HexFormat.of().parseHex(GOLDEN_XXH3_HEX);
    oneOverFour[6] = (byte) HashStrategy.MURMUR3_128_ENHANCED_DOUBLE.id();
    assertRejected(fixed(oneOverFour), "layer 0 has hash strategy 4, but the header says every layer has strategy 1");
    // Only layer 1 of strategy 1 under a strategy 4 header (layer 0 matches it).
    byte[] mixed = HexFormat.of().parseHex(GOLDEN_XXH3_HEX);
    mixed[LAYER1 + 6] = (byte) HashStrategy.MURMUR3_128_ENHANCED_DOUBLE.id();
    assertRejected(fixedWithLayer1(mixed), "layer 1 has hash strategy 1, but the header says every layer has strategy 4");
    byte[] blocked = HexFormat.of().parseHex(GOLDEN_XXH3_HEX);
    blocked[6] = (byte) HashStrategy.XXH3_64_BLOCKED.id();
    assertRejected(fixed(blocked), "layer 0 is filter type 1, but the header says every layer is type 2");
  }

  @Test
  void frozenBytesLoadAndAnswerAsTheOriginal() throws IOException {
    ScalableBloomFilter<CharSequence> f = load(golden());
    ScalableBloomFilter<CharSequence> fresh = goldenFilter();
    assertThat(f.hashStrategy()).isEqualTo(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE);
    assertThat(f.layerStats()).isEqualTo(fresh.layerStats());
    for (String item : ITEMS) {
      assertThat(f.mightContain(item)).isTrue();
    }
    for (int i = 0; i < 1000; i++) {
      assertThat(f.mightContain("probe" + i)).isEqualTo(fresh.mightContain("probe" + i));
    }
    byte[] b = golden();
    CRC32C crc = new CRC32C();
    crc.update(b, 0, b.length - 4);
    assertThat(ByteBuffer.wrap(b).getInt(b.length - 4)).isEqualTo((int) crc.getValue());
    assertThat(b).hasSize(48 + (52 + 8 + 4) + (52 + 16 + 4) + 4);
  }

  @Test
  void versionOneBytesStillLoad() throws IOException {
    ScalableBloomFilter<CharSequence> f = load(HexFormat.of().parseHex(GOLDEN_V1_HEX));
    assertThat(f.layerStats()).isEqualTo(goldenFilter().layerStats());
    for (String item : ITEMS) {
      assertThat(f.mightContain(item)).isTrue();
    }
  }

  @Test
  void aFunnelOfAnotherKeyTypeIsRefused() {
    assertThatThrownBy(() -> ScalableBloomFilter.readFrom(new ByteArrayInputStream(golden()), Funnels.integerFunnel()))
        .isInstanceOf(IOException.class).hasMessageContaining("UTF8_STRING").hasMessageContaining("INTEGER");
  }

  @Test
  void headerFieldsOutOfRange() {
    assertRejected(withInt(24, 1), "growthFactor must be in [2, 1024], was 1");
    assertRejected(withLong(28, Double.doubleToLongBits(1.0)), "tighteningRatio");
    assertRejected(withLong(8, 0), "initialCapacity must be >= 1, was 0");
    assertRejected(withLong(16, Double.doubleToLongBits(Double.NaN)), "fpp");
    assertRejected(withLong(36, -5), "maxBitSize must be >= 1, was -5");
    for (int layers : new int[] {0, -1, 65, Integer.MAX_VALUE}) {
      assertRejected(withInt(44, layers), "layer count must be in [1, 64], was " + layers);
    }
    byte[] keyType = golden();
    keyType[7] = 9;
    assertRejected(fixed(keyType), "unknown key type 9");
    byte[] flags = HexFormat.of().parseHex(GOLDEN_V1_HEX);
    flags[7] = 1;
    assertRejected(fixed(flags), "flags");
    byte[] mixed = golden();
    mixed[7] = (byte) KeyType.LONG.id();
    assertRejected(fixed(mixed), "layer 0 records key type UTF8_STRING, but the header says LONG");
    byte[] strategy = golden();
    strategy[6] = 7;
    assertRejected(fixed(strategy), "unknown layer hash strategy 7");
    byte[] version = golden();
    version[4] = 3;
    assertRejected(fixed(version), "version 3");
  }

  @Test
  void layersThatDoNotFollowTheHeader() {
    assertRejected(withLong(8, 5), "layer 0 declares capacity 4, but n0·s^i = 5");
    assertRejected(withLong(16, Double.doubleToLongBits(0.2)), "layer 0 declares fpp");
    assertRejected(withInt(24, 3), "layer 1 declares capacity 8, but n0·s^i = 12");
    byte[] blocked = golden();
    blocked[6] = (byte) HashStrategy.MURMUR3_128_BLOCKED.id();
    assertRejected(fixed(blocked), "layer 0 is filter type 1, but the header says every layer is type 2");
    assertRejected(withLong(36, 191), "the layers take 192 bits, above the filter's cap of 191");
    byte[] overCount = golden();
    ByteBuffer.wrap(overCount).putLong(LAYER1 + 36, 9);
    assertRejected(fixedWithLayer1(overCount), "layer 1 has count 9, above its capacity 8");
    byte[] nested = golden();
    nested[LAYER1 + 5] = (byte) FilterType.SCALABLE.id();
    assertRejected(fixedWithLayer1(nested), "layer 1 of 2: filter type 5 is a scalable Bloom filter");
    byte[] moreLayers = withInt(44, 3); // claims a third layer that is not there
    assertRejected(moreLayers, "layer 2 of 3: truncated");
  }

  @Test
  void aCapAtTheExactSizeLoads() throws IOException {
    assertThat(load(withLong(36, 192)).maxBitSize()).isEqualTo(192);
  }

  @Test
  void truncatedAnywhere() {
    byte[] b = golden();
    for (int len = 0; len < b.length; len++) {
      byte[] cut = Arrays.copyOf(b, len);
      // Fewer than the 4 magic bytes is "not a filter"; past them the file starts like one: "truncated".
      assertThatThrownBy(() -> load(cut)).as("length %d", len).isInstanceOf(IOException.class)
          .hasMessageContaining(len < 4 ? "not a concurrent-bloom filter" : "truncated");
    }
  }

  @Test
  void anyFlippedBitIsCaught() {
    byte[] b = golden();
    for (int bit = 0; bit < b.length * 8; bit++) {
      byte[] flipped = b.clone();
      flipped[bit / 8] ^= (byte) (1 << (bit % 8));
      assertThatThrownBy(() -> load(flipped)).as("bit %d", bit).isInstanceOf(IOException.class);
    }
  }

  /**
   * A layer that claims the largest bit array (16 GiB) followed by a few bytes fails as truncated after
   * allocating about what was there, as do 64 claimed layers with one present.
   */
  @Test
  void hostileSizesFailWithoutAllocatingWhatTheyClaim() {
    byte[] huge = golden();
    ByteBuffer.wrap(huge).putLong(LAYER1 + 8, Sizing.MAX_BITS).putLong(LAYER1 + 44, 8L * Sizing.MAX_WORDS);
    assertRejected(huge, "layer 1 of 2: truncated");
    byte[] many = Arrays.copyOf(golden(), 48 + 64);
    ByteBuffer.wrap(many).putInt(44, 64);
    assertRejected(many, "layer 1 of 64: truncated");
  }

  private static byte[] withInt(int offset, int value) {
    byte[] b = golden();
    ByteBuffer.wrap(b).putInt(offset, value);
    return fixed(b);
  }

  private static byte[] withLong(int offset, long value) {
    byte[] b = golden();
    ByteBuffer.wrap(b).putLong(offset, value);
    return fixed(b);
  }

  private static void assertRejected(byte[] bytes, String message) {
    assertThatThrownBy(() -> load(bytes)).isInstanceOf(IOException.class).hasMessageContaining(message);
  }
}
