package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Freezes format version 2 (docs/FORMAT.md) and hash strategy 1 (docs/HASHING.md), and checks that
 * version 1 files still load. If this test fails, files written by earlier releases no longer load or
 * answer differently: bump the version instead.
 */
class FilterFormatGoldenTest {
  /** create(stringFunnel, 10, 0.1) after adding "alpha", "beta", "gamma". */
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

  static BloomFilter<CharSequence> goldenFilter() {
    BloomFilter<CharSequence> f = BloomFilter.create(Funnels.stringFunnel(), 10, 0.1);
    f.add("alpha");
    f.add("beta");
    f.add("gamma");
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
    BloomFilter<CharSequence> f = BloomFilter.readFrom(
        new ByteArrayInputStream(HexFormat.of().parseHex(hex)), Funnels.stringFunnel());
    assertThat(f.mightContain("alpha")).isTrue();
    assertThat(f.mightContain("beta")).isTrue();
    assertThat(f.mightContain("gamma")).isTrue();
    BloomFilter<CharSequence> fresh = goldenFilter();
    for (int i = 0; i < 1000; i++) {
      assertThat(f.mightContain("probe" + i)).isEqualTo(fresh.mightContain("probe" + i));
    }
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
