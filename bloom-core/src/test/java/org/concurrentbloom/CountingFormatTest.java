package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Freezes the counting filter's file format (type 4 of format version 2, docs/FORMAT.md; version 1 still
 * loads), checks that
 * each reader refuses the other's type with a pointer to the right one, and fuzzes the counting reader
 * with CRC-corrected mutants so that the checks behind the checksum are reached.
 */
class CountingFormatTest {
  /**
   * A strategy-1 filter, builder(stringFunnel).expectedInsertions(10).fpp(0.1).hashStrategy(MURMUR3...), after
   * adding "alpha", "beta", "gamma" and "alpha" again: the bytes every counting file had before strategy 4.
   */
  static final String GOLDEN_HEX =
      "43424c4d02040101" // magic, version 2, type 4 (counting), strategy 1, key type 1 (UTF-8)
      + "0000000000000040" // m = 64 counters
      + "00000003000000000000000a" // k = 3, n = 10
      + "3fb999999999999a" // p = 0.1
      + "0000000000000003" // count = 3: the second add of alpha returned false
      + "0000000000000020" // payload bytes = 32: 4 words of 16 counters
      + "0000000000000100" // counters 0..15: counter 2 is 1
      + "0000000000000000" // counters 16..31
      + "0012100000001000" // counters 32..47: 35, 43, 45 are 1, 44 is 2
      + "2000000010210000" // counters 48..63: 52, 55 are 1, 53, 63 are 2
      + "c952a549"; // CRC32C

  /** The same filter in format version 1 (byte 7 reserved, 0), as release 0.1 wrote it. */
  static final String GOLDEN_V1_HEX =
      "43424c4d01040100" // magic, version 1, type 4 (counting), strategy 1, flags 0
      + "0000000000000040" // m = 64 counters
      + "00000003000000000000000a" // k = 3, n = 10
      + "3fb999999999999a" // p = 0.1
      + "0000000000000003" // count = 3: the second add of alpha returned false
      + "0000000000000020" // payload bytes = 32: 4 words of 16 counters
      + "0000000000000100" // counters 0..15: counter 2 is 1
      + "0000000000000000" // counters 16..31
      + "0012100000001000" // counters 32..47: 35, 43, 45 are 1, 44 is 2
      + "2000000010210000" // counters 48..63: 52, 55 are 1, 53, 63 are 2
      + "6b4b8f3d"; // CRC32C

  /** The same adds to create(stringFunnel, 10, 0.1), of strategy 4 (XXH3): the bytes of a new counting file. */
  static final String GOLDEN_XXH3_HEX =
      "43424c4d02040401" // magic, version 2, type 4 (counting), strategy 4, key type 1 (strings)
      + "0000000000000040" // m = 64 counters
      + "00000003000000000000000a" // k = 3, n = 10
      + "3fb999999999999a" // p = 0.1
      + "0000000000000003" // count = 3
      + "0000000000000020" // payload bytes = 32
      // alpha probes 15, 52, 26 (added twice: 2 each), beta 33, 16, 0, gamma 13, 12, 12 (12 counted once)
      + "2011000000000001" // counters 0..15: 0, 12, 13 are 1, 15 is 2
      + "0000020000000001" // counters 16..31: 16 is 1, 26 is 2
      + "0000000000000010" // counters 32..47: 33 is 1
      + "0000000000020000" // counters 48..63: 52 is 2
      + "c627c1f0"; // CRC32C

  static CountingBloomFilter<CharSequence> goldenFilter() {
    return withGoldenAdds(CountingBloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(10).fpp(0.1)
        .hashStrategy(HashStrategy.MURMUR3_128_ENHANCED_DOUBLE).build());
  }

  private static CountingBloomFilter<CharSequence> withGoldenAdds(CountingBloomFilter<CharSequence> f) {
    for (String item : new String[] {"alpha", "beta", "gamma", "alpha"}) {
      f.add(item);
    }
    return f;
  }

  @Test
  void strategyFourWriterProducesItsFrozenBytesAndTheyLoad() throws IOException {
    CountingBloomFilter<CharSequence> fresh = withGoldenAdds(CountingBloomFilter.create(Funnels.stringFunnel(), 10, 0.1));
    assertThat(fresh.hashStrategy()).isSameAs(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
    assertThat(HexFormat.of().formatHex(MembershipFilterContractTest.bytes(fresh))).isEqualTo(GOLDEN_XXH3_HEX);
    CountingBloomFilter<CharSequence> f = load(HexFormat.of().parseHex(GOLDEN_XXH3_HEX));
    assertThat(f.hashStrategy()).isSameAs(HashStrategy.XXH3_64_ENHANCED_DOUBLE);
    assertThat(f.currentWords()).isEqualTo(fresh.currentWords()).isNotEqualTo(goldenFilter().currentWords());
    for (String item : new String[] {"alpha", "beta", "gamma"}) {
      assertThat(f.mightContain(item)).isTrue();
    }
    assertThat(f.isCompatible(goldenFilter())).isFalse();
    assertThatThrownBy(() -> f.merge(goldenFilter())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hashStrategy=1").hasMessageContaining("hashStrategy=4");
  }

  private static CountingBloomFilter<CharSequence> load(byte[] bytes) throws IOException {
    return CountingBloomFilter.readFrom(new ByteArrayInputStream(bytes), Funnels.stringFunnel());
  }

  private static byte[] golden() {
    return HexFormat.of().parseHex(GOLDEN_HEX);
  }

  @Test
  void writerProducesTheFrozenBytes() throws IOException {
    assertThat(HexFormat.of().formatHex(MembershipFilterContractTest.bytes(goldenFilter()))).isEqualTo(GOLDEN_HEX);
  }

  /**
   * The payload decoded as documented: the counters are the documented probe positions (recomputed
   * from scratch, as FilterFormatGoldenTest does for bits), each incremented once per add of an item,
   * and the CRC covers everything before it.
   */
  @Test
  void frozenBytesDecodeAsDocumented() {
    byte[] bytes = golden();
    ByteBuffer b = ByteBuffer.wrap(bytes);
    assertThat(bytes).hasSize(52 + 32 + 4);
    assertThat(b.get(5)).as("type").isEqualTo((byte) 4);
    assertThat(b.getLong(8)).as("m").isEqualTo(64);
    assertThat(b.getInt(16)).as("k").isEqualTo(3);
    assertThat(b.getLong(44)).as("payload length").isEqualTo(32);
    int[] expected = new int[64];
    for (String item : new String[] {"alpha", "beta", "gamma", "alpha"}) {
      for (long counter : documentedProbes(item, 64, 3)) {
        expected[(int) counter]++;
      }
    }
    int[] decoded = new int[64];
    for (int i = 0; i < 64; i++) {
      long word = b.getLong(52 + 8 * (i / 16));
      decoded[i] = (int) (word >>> (4 * (i % 16))) & 15;
    }
    assertThat(decoded).isEqualTo(expected);
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, 84);
    assertThat(b.getInt(84)).as("CRC32C").isEqualTo((int) crc.getValue());
  }

  /** docs/HASHING.md's derivation in BigInteger arithmetic; a repeated position is listed once. */
  private static long[] documentedProbes(String item, long m, int k) {
    long[] h = HashingSinkTest.hashOf(item.getBytes(StandardCharsets.UTF_8));
    java.math.BigInteger two64 = java.math.BigInteger.ONE.shiftLeft(64);
    java.math.BigInteger bm = java.math.BigInteger.valueOf(m);
    long x = new java.math.BigInteger(Long.toUnsignedString(h[0])).multiply(bm).divide(two64).longValueExact();
    long y = new java.math.BigInteger(Long.toUnsignedString(h[1])).multiply(bm).divide(two64).longValueExact();
    java.util.TreeSet<Long> probes = new java.util.TreeSet<>();
    for (int i = 1; i <= k; i++) {
      probes.add(x);
      x = (x + y) % m;
      y = (y + i) % m;
    }
    return probes.stream().mapToLong(Long::longValue).toArray();
  }

  @Test
  void versionOneBytesStillLoad() throws IOException {
    CountingBloomFilter<CharSequence> f = load(HexFormat.of().parseHex(GOLDEN_V1_HEX));
    assertThat(f.currentWords()).isEqualTo(goldenFilter().currentWords());
    assertThat(f.count()).isEqualTo(3);
  }

  @Test
  void aFunnelOfAnotherKeyTypeIsRefused() {
    assertThatThrownBy(() -> CountingBloomFilter.readFrom(new ByteArrayInputStream(golden()), Funnels.longFunnel()))
        .isInstanceOf(IOException.class).hasMessageContaining("UTF8_STRING").hasMessageContaining("LONG");
  }

  @Test
  void frozenBytesLoadAndAnswerAsTheOriginal() throws IOException {
    CountingBloomFilter<CharSequence> f = load(golden());
    CountingBloomFilter<CharSequence> fresh = goldenFilter();
    assertThat(f.count()).isEqualTo(3);
    assertThat(f.currentWords()).isEqualTo(fresh.currentWords());
    assertThat(f.remove("alpha")).isTrue();
    assertThat(f.mightContain("alpha")).isTrue(); // added twice
    assertThat(f.remove("alpha")).isTrue();
    assertThat(f.mightContain("alpha")).isFalse();
  }

  @Test
  void eachReaderRefusesTheOtherTypeAndNamesTheRightReader() throws IOException {
    assertThatThrownBy(() -> BloomFilter.readFrom(new ByteArrayInputStream(golden()), Funnels.stringFunnel()))
        .isInstanceOf(IOException.class).hasMessageContaining("filter type 4")
        .hasMessageContaining("CountingBloomFilter.readFrom");
    byte[] standard = FilterFormatGoldenTest.bytesOf(FilterFormatGoldenTest.goldenFilter());
    assertThatThrownBy(() -> load(standard)).isInstanceOf(IOException.class)
        .hasMessageContaining("filter type 1").hasMessageContaining("BloomFilter.readFrom");
  }

  @Test
  void inconsistentHeadersAreRejected() {
    byte[] length = golden();
    ByteBuffer.wrap(length).putLong(44, 8); // the standard length for m = 64: wrong for counters
    assertThatThrownBy(() -> load(FilterFormatRejectionTest.withFixedCrc(length))).isInstanceOf(IOException.class)
        .hasMessageContaining("payload length 8").hasMessageContaining("64 counters").hasMessageContaining("32");

    byte[] tooMany = golden();
    long m = CounterWords.MAX_COUNTERS + 1;
    ByteBuffer.wrap(tooMany).putLong(8, m).putLong(44, 8L * ((m + 15) / 16));
    assertThatThrownBy(() -> load(FilterFormatRejectionTest.withFixedCrc(tooMany))).isInstanceOf(IOException.class)
        .hasMessageContaining("counter count must be in [1, " + CounterWords.MAX_COUNTERS + "], was " + m);

    byte[] strategy = golden();
    strategy[6] = 2;
    assertThatThrownBy(() -> load(FilterFormatRejectionTest.withFixedCrc(strategy))).isInstanceOf(IOException.class)
        .hasMessageContaining("hash strategy 2 for filter type 4");
  }

  @Test
  void countersPastMAreRejected() {
    byte[] b = golden();
    ByteBuffer.wrap(b).putLong(8, 60).putLong(52 + 24, 0x1000_0000_0000_0000L); // counter 63 of 60
    assertThatThrownBy(() -> load(FilterFormatRejectionTest.withFixedCrc(b))).isInstanceOf(IOException.class)
        .hasMessageContaining("counters past m=60");
  }

  @Test
  void truncatedAnywhereOrAnyBitFlippedIsRejected() {
    byte[] b = golden();
    for (int len = 0; len < b.length; len++) {
      byte[] cut = Arrays.copyOf(b, len);
      // Fewer than the 4 magic bytes is "not a filter"; past them the file starts like one: "truncated".
      assertThatThrownBy(() -> load(cut)).as("length %d", len).isInstanceOf(IOException.class)
          .hasMessageContaining(len < 4 ? "not a concurrent-bloom filter" : "truncated");
    }
    for (int bit = 0; bit < b.length * 8; bit++) {
      byte[] flipped = b.clone();
      flipped[bit / 8] ^= (byte) (1 << (bit % 8));
      assertThatThrownBy(() -> load(flipped)).as("bit %d", bit).isInstanceOf(IOException.class);
    }
  }

  /**
   * FilterFormatFuzzTest's mutations, half of them with the CRC recomputed: every mutant loads into a
   * filter that keeps the invariants and writes back exactly its own bytes, or fails with an IOException.
   */
  @Test
  void everyMutantLoadsSoundlyOrThrowsIOException() throws IOException {
    byte[] valid = golden();
    SplittableRandom random = new SplittableRandom(4);
    int loaded = 0;
    for (int i = 0; i < 10_000; i++) {
      byte[] mutant = FilterFormatFuzzTest.mutate(valid, random);
      if (random.nextBoolean() && mutant.length >= FilterFormat.HEADER_BYTES + 4) {
        FilterFormatRejectionTest.withFixedCrc(mutant);
      }
      CountingBloomFilter<CharSequence> f;
      try {
        f = load(mutant);
      } catch (IOException expected) {
        continue;
      } catch (RuntimeException | Error e) {
        fail("case " + i + " threw " + e + " for " + HexFormat.of().formatHex(mutant));
        return;
      }
      loaded++;
      assertThat(f.counterCount()).isBetween(1L, CounterWords.MAX_COUNTERS);
      assertThat(f.fillRatio()).isBetween(0.0, 1.0);
      assertThat(f.stuckCounters()).isBetween(0L, f.counterCount());
      f.mightContain("anything");
      byte[] rewritten = MembershipFilterContractTest.bytes(load(mutant));
      assertThat(Arrays.copyOf(mutant, rewritten.length)).isEqualTo(rewritten);
      f.add("new item");
      assertThat(f.mightContain("new item")).isTrue();
      assertThat(f.remove("new item")).isTrue();
    }
    assertThat(loaded).as("mutants that loaded (so the checks behind the CRC ran)").isPositive();
  }
}
