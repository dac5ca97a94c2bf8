package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Freezes filter type 6 (docs/FORMAT.md, "Type 6: expiring") and checks that every way such a file can be
 * wrong fails with an IOException naming the problem. If the golden test fails, files written by earlier
 * releases no longer load or answer differently: that needs a new format version.
 */
class ExpiringFormatTest {
  static final long ORIGIN = 1_764_633_600_000L; // 2025-12-02T00:00Z

  /** {@link #goldenFilter()}: W = 3 s, G = 4, n = 6, p = 0.1, written at origin + 2.5 s (slot 2). */
  static final String GOLDEN_HEX =
      "43424c4d02060401" // magic, version 2, type 6, strategy 4, key type 1 (UTF-8 strings)
      + "0000000000000006" // n = 6 per window
      + "3fb999999999999a" // p = 0.1
      + "0000000000000bb8" // W = 3,000 ms
      + "00000004" // G = 4
      + "00000005" // k = 5
      + "0000000000000040" // m = 64 bits per generation
      + "00000000000003e8" // s = 1,000 ms
      + "0000019adc5be000" // origin = 1,764,633,600,000 ms
      + "0000000000000002" // current slot 2
      + "0000000000000020" // L = 32 payload bytes
      // generation 0: slot 0 (starts at origin), 2 adds, not kept
      + "0000019adc5be000" + "0000000000000002" + "8000000000000000"
      // generation 1: slot 1 (origin + 1 s), no adds
      + "0000019adc5be3e8" + "0000000000000000" + "8000000000000000"
      // generation 2: slot 2 (origin + 2 s), the current one, 1 add
      + "0000019adc5be7d0" + "0000000000000001" + "8000000000000000"
      // generation 3: slot -1 (origin − 1 s), from before the filter was built: empty
      + "0000019adc5bdc18" + "0000000000000000" + "8000000000000000"
      // payload: 4 words of 16 cells of 4 bits; bit 0 of a cell is generation 0, bit 2 generation 2
      + "4010000010000400" + "4010010000000000" + "0140000001000000" + "1000000041010001"
      + "63b61a1d"; // CRC32C of the 208 bytes before it

  static ExpiringBloomFilter<CharSequence> goldenFilter() {
    TestClock clock = new TestClock(ORIGIN);
    ExpiringBloomFilter<CharSequence> f = ExpiringBloomFilter.builder(Funnels.stringFunnel())
        .window(Duration.ofSeconds(3)).expectedInsertionsPerWindow(6).fpp(0.1).generations(4).clock(clock).build();
    clock.set(ORIGIN + 100);
    f.add("apple");
    f.add("banana");
    clock.set(ORIGIN + 2_500);
    f.mightContain("step"); // runs the step to slot 2 before the add, so that cherry lands only there
    f.add("cherry");
    return f;
  }

  private static byte[] golden() {
    return HexFormat.of().parseHex(GOLDEN_HEX);
  }

  private static byte[] bytes(ExpiringBloomFilter<?> f) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    return out.toByteArray();
  }

  @Test
  void goldenBytesAreFrozen() throws IOException {
    assertThat(HexFormat.of().formatHex(bytes(goldenFilter()))).isEqualTo(GOLDEN_HEX);
  }

  @Test
  void goldenBytesLoadAndAnswerAsTheOriginal() throws IOException {
    TestClock clock = new TestClock(ORIGIN + 2_500);
    ExpiringBloomFilter<CharSequence> f = ExpiringBloomFilter.readFrom(new ByteArrayInputStream(golden()),
        Funnels.stringFunnel(), clock);
    assertThat(f.mightContain("apple")).isTrue();
    assertThat(f.mightContain("banana")).isTrue();
    assertThat(f.mightContain("cherry")).isTrue();
    assertThat(f.count()).isEqualTo(3);
    assertThat(f.generations().get(0).count()).isEqualTo(1);
    // apple and banana were added at origin + 0.1 s in slot 0: remembered until slot 4 begins (origin + 4 s).
    clock.set(ORIGIN + 3_999);
    assertThat(f.mightContain("apple")).isTrue();
    clock.set(ORIGIN + 4_000);
    assertThat(f.mightContain("apple")).isFalse();
    assertThat(f.mightContain("cherry")).isTrue();
    assertThat(f.count()).isEqualTo(1);
  }

  @Test
  void otherReadersPointToTheRightOne() {
    assertRejected(golden(), BloomFilter::readFrom,
        "filter type 6 is an expiring Bloom filter: read it with ExpiringBloomFilter.readFrom");
    assertThatThrownBy(() -> ExpiringBloomFilter.readFrom(new ByteArrayInputStream(
        bytesOf(BloomFilter.create(Funnels.stringFunnel(), 10, 0.1))), Funnels.stringFunnel()))
        .isInstanceOf(IOException.class).hasMessageContaining("filter type 1 is not an expiring filter (type 6)")
        .hasMessageContaining("BloomFilter.readFrom");
    assertThatThrownBy(() -> ExpiringBloomFilter.readFrom(new ByteArrayInputStream(golden()), Funnels.longFunnel()))
        .isInstanceOf(IOException.class).hasMessageContaining("key type");
  }

  private static byte[] bytesOf(BloomFilter<?> f) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    return out.toByteArray();
  }

  /** Each field made wrong (with the CRC fixed, so that the field's own check must catch it). */
  @Test
  void eachBadFieldIsRefusedByName() {
    assertRejectedField(4, "01", "exists only in format version 2");
    assertRejectedField(6, "01", "takes hash strategy 4");
    assertRejectedField(8, "0000000000000000", "expectedInsertionsPerWindow must be >= 1, was 0");
    assertRejectedField(16, "7ff8000000000000", "fpp must be in the open interval (0, 1), was NaN");
    assertRejectedField(24, "00000000000003e7", "window must be at least 1000 ms, was 999 ms");
    assertRejectedField(32, "00000003", "generations must be a power of two in [2, 64], was 3");
    assertRejectedField(32, "00000080", "was 128");
    assertRejectedField(36, "00000006", "make k=5, m=64, s=1000 ms, but the file says k=6");
    assertRejectedField(40, "0000000000000080", "but the file says k=5, m=128");
    assertRejectedField(48, "00000000000003e9", "s=1001 ms");
    assertRejectedField(64, "ffffffffffffffff", "current slot must be in [0, 36028797018963967], was -1");
    assertRejectedField(72, "0000000000000021", "payload length must be 32 bytes (G·m/8), was 33");
    assertRejectedField(72, "7fffffffffffffff", "payload length must be 32 bytes");
    assertRejectedField(80, "0000019adc5be001", "generation 0 starts at 1764633600001, but it holds slot 0");
    assertRejectedField(56, "0000019adc5be001", "generation 0 starts at 1764633600000, but it holds slot 0, which"
        + " starts at origin + slot·s = 1764633600001");
    assertRejectedField(64, "0000000000000003", "generation 3 starts at");
    assertRejectedField(88, "ffffffffffffffff", "generation 0 has count -1");
    assertRejectedField(96, "0000019adc5bdfff", "generation 0 is kept until 1764633599999, before its slot starts");
    byte[] crc = golden();
    crc[crc.length - 1] ^= 1;
    assertRejected(crc, ExpiringFormatTest::read, "checksum mismatch");
  }

  /**
   * Kept-until times: written only by development builds before 2026-12-02 (a late add kept its generation
   * past its end); now every writer writes none. A reader keeps such a generation's items by moving its
   * cells into the current generation, which lasts at least as long, and refuses a time past even that.
   */
  @Test
  void aKeptUntilTimeFromAnOlderFileIsKeptByTheCurrentGeneration() throws IOException {
    byte[] kept = golden();
    ByteBuffer.wrap(kept).putLong(96, ORIGIN + 5_000); // generation 0 (slot 0, ends at origin + 4 s) kept to 5 s
    fixCrc(kept);
    TestClock clock = new TestClock(ORIGIN + 2_500);
    ExpiringBloomFilter<CharSequence> f =
        ExpiringBloomFilter.readFrom(new ByteArrayInputStream(kept), Funnels.stringFunnel(), clock);
    clock.set(ORIGIN + 4_999);
    assertThat(f.mightContain("apple")).as("apple, kept until origin + 5 s").isTrue();
    assertThat(f.mightContain("banana")).isTrue();
    assertThat(f.mightContain("cherry")).isTrue();
    assertThat(HexFormat.of().formatHex(bytes(f))).as("written back").doesNotContain("0000019adc5bf388");
    clock.set(ORIGIN + 6_000); // the current generation (slot 2) is over: everything is forgotten
    assertThat(f.mightContain("apple")).isFalse();
    assertThat(f.mightContain("cherry")).isFalse();
    // Without the kept-until time, apple is gone from origin + 4 s.
    TestClock plain = new TestClock(ORIGIN + 4_000);
    assertThat(ExpiringBloomFilter.readFrom(new ByteArrayInputStream(golden()), Funnels.stringFunnel(), plain)
        .mightContain("apple")).isFalse();
    // A kept-until time not past the generation's own end changes nothing; one past the current's is refused.
    assertRejectedField(96, "0000019adc5bf771", "generation 0 is kept until 1764633606001, after the current"
        + " generation (slot 2) is forgotten at 1764633606000");
    assertRejectedField(144, "0000019adc5bf771", "generation 2 is kept until 1764633606001");
    byte[] harmless = golden();
    ByteBuffer.wrap(harmless).putLong(144, ORIGIN + 6_000); // the current generation, to its own end
    fixCrc(harmless);
    TestClock late = new TestClock(ORIGIN + 4_000);
    ExpiringBloomFilter<CharSequence> g =
        ExpiringBloomFilter.readFrom(new ByteArrayInputStream(harmless), Funnels.stringFunnel(), late);
    assertThat(g.mightContain("apple")).isFalse();
    assertThat(g.mightContain("cherry")).isTrue();
  }

  @Test
  void truncationsAreRefusedAndAllocateLittle() {
    byte[] valid = golden();
    for (int length = 0; length < valid.length; length++) {
      byte[] cut = java.util.Arrays.copyOf(valid, length);
      assertThatThrownBy(() -> read(cut)).as("length %d", length).isInstanceOf(IOException.class);
    }
    // A header declaring a shape of 3 GB that the builder would make (n = 10^9 per window), followed by the
    // generation table and then nothing: refused as truncated, having allocated one first chunk of words.
    ExpiringBloomFilter.Builder<CharSequence> big = ExpiringBloomFilter.builder(Funnels.stringFunnel())
        .window(Duration.ofSeconds(3)).expectedInsertionsPerWindow(1_000_000_000).fpp(0.1).generations(4);
    ByteBuffer header = ByteBuffer.wrap(java.util.Arrays.copyOf(valid, 176));
    header.putLong(8, 1_000_000_000).putInt(36, big.hashFunctions()).putLong(40, big.bitsPerGeneration())
        .putLong(72, big.bitSize() / 8);
    assertThat(big.bitSize()).isGreaterThan(8L << 30);
    assertThatThrownBy(() -> read(header.array())).isInstanceOf(IOException.class)
        .hasMessage("truncated filter: it ends after 0 bytes of the bit array, which the header says holds "
            + big.bitSize() / 8 + " bytes");
  }

  /**
   * Random header fields with the CRC recomputed: every mutant is refused with an IOException or loads as
   * a filter whose own checks hold (nothing else is thrown, nothing large is allocated: a hostile n or G
   * cannot declare more than the builder would build, and that is checked before reading the payload).
   */
  @Test
  void mutatedHeadersWithAValidChecksumLoadSoundlyOrAreRefused() throws IOException {
    byte[] valid = golden();
    SplittableRandom random = new SplittableRandom(20261202L);
    int loaded = 0;
    for (int trial = 0; trial < 5_000; trial++) {
      byte[] mutant = valid.clone();
      int at = random.nextInt(176);
      mutant[at] = (byte) random.nextInt(256);
      if (random.nextBoolean()) {
        mutant[random.nextInt(176)] = (byte) random.nextInt(256);
      }
      fixCrc(mutant);
      ExpiringBloomFilter<CharSequence> f;
      try {
        f = read(mutant);
      } catch (IOException expected) {
        continue;
      }
      loaded++;
      assertThat(f.bitSize()).isLessThanOrEqualTo(8L * (valid.length - 180));
      f.mightContain("apple");
      f.add("date");
      assertThat(f.mightContain("date")).isTrue();
      assertThat(f.generations()).isNotEmpty();
    }
    assertThat(loaded).isPositive().isLessThan(5_000);
  }

  private static ExpiringBloomFilter<CharSequence> read(byte[] b) throws IOException {
    return ExpiringBloomFilter.readFrom(new ByteArrayInputStream(b), Funnels.stringFunnel(), new TestClock(ORIGIN + 2_500));
  }

  private static void assertRejectedField(int offset, String hex, String message) {
    byte[] b = golden();
    byte[] field = HexFormat.of().parseHex(hex);
    System.arraycopy(field, 0, b, offset, field.length);
    fixCrc(b);
    assertRejected(b, ExpiringFormatTest::read, message);
  }

  private interface Reader {
    Object read(byte[] b) throws IOException;
  }

  private static void assertRejected(byte[] b, Reader reader, String message) {
    assertThatThrownBy(() -> reader.read(b)).isInstanceOf(IOException.class).hasMessageContaining(message);
  }

  private static void assertRejected(byte[] b, BloomReader reader, String message) {
    assertThatThrownBy(() -> reader.read(new ByteArrayInputStream(b), Funnels.stringFunnel()))
        .isInstanceOf(IOException.class).hasMessageContaining(message);
  }

  private interface BloomReader {
    Object read(java.io.InputStream in, Funnel<CharSequence> funnel) throws IOException;
  }

  static void fixCrc(byte[] b) {
    CRC32C crc = new CRC32C();
    crc.update(b, 0, b.length - 4);
    ByteBuffer.wrap(b).putInt(b.length - 4, (int) crc.getValue());
  }
}
