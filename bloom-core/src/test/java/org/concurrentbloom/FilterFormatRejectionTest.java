package org.concurrentbloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** Each way a file can be wrong gets an IOException that says what is wrong. */
class FilterFormatRejectionTest {

  private static byte[] valid() throws IOException {
    return FilterFormatGoldenTest.bytesOf(FilterFormatGoldenTest.goldenFilter());
  }

  private static BloomFilter<CharSequence> load(byte[] bytes) throws IOException {
    return BloomFilter.readFrom(new ByteArrayInputStream(bytes), Funnels.stringFunnel());
  }

  /** Rewrites the CRC so that a test reaches the check after it. */
  static byte[] withFixedCrc(byte[] bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - 4);
    ByteBuffer.wrap(bytes).putInt(bytes.length - 4, (int) crc.getValue());
    return bytes;
  }

  @Test
  void wrongMagic() throws IOException {
    byte[] b = valid();
    b[0] = 'X';
    assertThatThrownBy(() -> load(b)).isInstanceOf(IOException.class).hasMessageContaining("magic");
  }

  @Test
  void unknownVersionTypeStrategyOrFlags() throws IOException {
    byte[] v = valid();
    v[4] = 3;
    assertThatThrownBy(() -> load(v)).isInstanceOf(IOException.class).hasMessageContaining("version 3");
    byte[] t = valid();
    t[5] = 9;
    assertThatThrownBy(() -> load(t)).isInstanceOf(IOException.class).hasMessageContaining("filter type 9");
    byte[] s = valid();
    s[6] = 7;
    assertThatThrownBy(() -> load(s)).isInstanceOf(IOException.class).hasMessageContaining("hash strategy 7");
    byte[] k = withFixedCrc(valid());
    k[7] = 9;
    assertThatThrownBy(() -> load(withFixedCrc(k))).isInstanceOf(IOException.class)
        .hasMessageContaining("unknown key type 9");
    byte[] f = java.util.HexFormat.of().parseHex(FilterFormatGoldenTest.GOLDEN_V1_HEX);
    f[7] = 1;
    assertThatThrownBy(() -> load(withFixedCrc(f))).isInstanceOf(IOException.class).hasMessageContaining("flags");
  }

  /**
   * A standard (type 1) record admits strategies 1 and 4 only, a blocked (type 2) one 2 and 5 only: a
   * strategy of the other layout is refused naming the strategy, even with a valid CRC; the admitted ones
   * load (the bits then answer for the other hash, but the file is well formed).
   */
  @Test
  void aStrategyOfTheOtherLayoutIsRefusedNamingIt() throws IOException {
    String[] files = {FilterFormatGoldenTest.GOLDEN_HEX, FilterFormatGoldenTest.GOLDEN_XXH3_HEX,
        FilterFormatGoldenTest.GOLDEN_BLOCKED_XXH3_HEX};
    for (String hex : files) {
      byte[] valid = java.util.HexFormat.of().parseHex(hex);
      int type = valid[5];
      int[] refused = type == 1 ? new int[] {2, 5, 3, 0} : new int[] {1, 4, 3, 0};
      int[] admitted = type == 1 ? new int[] {1, 4} : new int[] {2, 5};
      for (int strategy : refused) {
        byte[] b = valid.clone();
        b[6] = (byte) strategy;
        assertThatThrownBy(() -> load(withFixedCrc(b))).as("type %d, strategy %d", type, strategy)
            .isInstanceOf(IOException.class)
            .hasMessageContaining("unknown hash strategy " + strategy + " for filter type " + type);
      }
      for (int strategy : admitted) {
        byte[] b = valid.clone();
        b[6] = (byte) strategy;
        assertThat(load(withFixedCrc(b)).layout().strategy().id()).isEqualTo(strategy);
      }
    }
  }

  /** Reading with a funnel of another key type would answer "absent" for added keys: refused, naming both. */
  @Test
  void aFunnelOfAnotherKeyTypeIsRefused() throws IOException {
    BloomFilter<Long> longs = BloomFilter.create(Funnels.longFunnel(), 100, 0.01);
    longs.add(42L);
    byte[] bytes = FilterFormatGoldenTest.bytesOf(longs);
    assertThatThrownBy(() -> load(bytes)).isInstanceOf(IOException.class)
        .hasMessageContaining("64-bit integers (key type LONG)")
        .hasMessageContaining("Funnels.stringFunnel()")
        .hasMessageContaining("UTF8_STRING");
    Funnel<Object> custom = (item, sink) -> sink.putString(item.toString());
    assertThatThrownBy(() -> BloomFilter.readFrom(new ByteArrayInputStream(bytes), custom))
        .isInstanceOf(IOException.class).hasMessageContaining("CUSTOM");
    // A caller who knows better declares the key type its funnel matches.
    Funnel<Long> mine = (item, sink) -> sink.putLong(item);
    BloomFilter<Long> read = BloomFilter.readFrom(new ByteArrayInputStream(bytes),
        Funnels.withKeyType(mine, KeyType.LONG));
    org.assertj.core.api.Assertions.assertThat(read.mightContain(42L)).isTrue();
    // A custom funnel's file is read by a custom funnel; a built-in one is refused.
    BloomFilter<Object> customFilter = BloomFilter.create(custom, 100, 0.01);
    byte[] customBytes = FilterFormatGoldenTest.bytesOf(customFilter);
    org.assertj.core.api.Assertions.assertThat(customBytes[7]).isEqualTo((byte) KeyType.CUSTOM.id());
    BloomFilter.readFrom(new ByteArrayInputStream(customBytes), custom);
    assertThatThrownBy(() -> load(customBytes)).isInstanceOf(IOException.class).hasMessageContaining("CUSTOM");
  }

  /** A text file, or any file too short to be a filter, is "not a filter" unless it starts like one. */
  @Test
  void shortNonFilterIsNotAFilterRatherThanTruncated() {
    for (String text : new String[] {"", "a", "abc", "hello, world\n", "CBL"}) {
      byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      assertThatThrownBy(() -> load(bytes)).as(text).isInstanceOf(IOException.class)
          .hasMessageContaining("not a concurrent-bloom filter");
    }
  }

  @Test
  void truncatedAnywhere() throws IOException {
    byte[] b = valid();
    for (int len = 4; len < b.length; len++) {
      byte[] cut = Arrays.copyOf(b, len);
      assertThatThrownBy(() -> load(cut)).as("length %d", len).isInstanceOf(IOException.class)
          .hasMessageContaining("truncated");
    }
  }

  @Test
  void aTruncatedPayloadSaysHowMuchOfItThereIsAndHowMuchTheHeaderDeclares() throws IOException {
    BloomFilter<CharSequence> f = BloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(100_000).build();
    byte[] whole = FilterFormatGoldenTest.bytesOf(f);
    long payload = 8 * ((f.bitSize() + 63) / 64);
    // the 52-byte header and 48 bytes of the payload: the first read of a word buffer comes up short
    assertThatThrownBy(() -> load(Arrays.copyOf(whole, 100))).isInstanceOf(IOException.class)
        .hasMessage("truncated filter: it ends after 48 bytes of the bit array, which the header says holds "
            + payload + " bytes");
    // past the first buffer: the count is of the whole array so far, not of one read
    assertThatThrownBy(() -> load(Arrays.copyOf(whole, 52 + 70_001))).isInstanceOf(IOException.class)
        .hasMessage("truncated filter: it ends after 70001 bytes of the bit array, which the header says holds "
            + payload + " bytes");
    assertThatThrownBy(() -> load(Arrays.copyOf(whole, 20))).isInstanceOf(IOException.class)
        .hasMessage("truncated filter: it ends after 20 of the 52 bytes of the header");
    CountingBloomFilter<CharSequence> c = CountingBloomFilter.builder(Funnels.stringFunnel()).expectedInsertions(1000)
        .build();
    java.io.ByteArrayOutputStream counting = new java.io.ByteArrayOutputStream();
    c.writeTo(counting);
    assertThatThrownBy(() -> CountingBloomFilter.readFrom(
        new ByteArrayInputStream(Arrays.copyOf(counting.toByteArray(), 60)), Funnels.stringFunnel()))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("truncated filter: it ends after 8 bytes of the counter array, which the header");
  }

  @Test
  void anyFlippedBitIsCaught() throws IOException {
    byte[] b = valid();
    for (int bit = 0; bit < b.length * 8; bit++) {
      byte[] flipped = b.clone();
      flipped[bit / 8] ^= (byte) (1 << (bit % 8));
      assertThatThrownBy(() -> load(flipped)).as("bit %d", bit).isInstanceOf(IOException.class);
    }
  }

  @Test
  void flippedPayloadBitIsACheckumMismatch() throws IOException {
    byte[] b = valid();
    b[55] ^= 0x10;
    assertThatThrownBy(() -> load(b)).isInstanceOf(IOException.class).hasMessageContaining("checksum mismatch");
  }

  @Test
  void sizesThatDoNotMatch() throws IOException {
    byte[] b = valid();
    ByteBuffer.wrap(b).putLong(44, 16); // payload length for m = 64 must be 8
    assertThatThrownBy(() -> load(withFixedCrc(b))).isInstanceOf(IOException.class)
        .hasMessageContaining("payload length 16");
    byte[] k = valid();
    ByteBuffer.wrap(k).putInt(16, 0);
    assertThatThrownBy(() -> load(withFixedCrc(k))).isInstanceOf(IOException.class)
        .hasMessageContaining("hash function count").hasMessageContaining("was 0");
    byte[] p = valid();
    ByteBuffer.wrap(p).putDouble(28, Double.NaN);
    assertThatThrownBy(() -> load(withFixedCrc(p))).isInstanceOf(IOException.class).hasMessageContaining("fpp");
    byte[] c = valid();
    ByteBuffer.wrap(c).putLong(36, -1);
    assertThatThrownBy(() -> load(withFixedCrc(c))).isInstanceOf(IOException.class).hasMessageContaining("count");
  }

  @Test
  void bitsPastMAreRejected() throws IOException {
    byte[] b = valid();
    ByteBuffer.wrap(b).putLong(8, 60); // m = 60: one word still, but the golden word has bits >= 60 clear?
    ByteBuffer.wrap(b).putLong(52, -1L); // set all 64 bits, including 60..63
    assertThatThrownBy(() -> load(withFixedCrc(b))).isInstanceOf(IOException.class)
        .hasMessageContaining("bits past m=60");
  }

  /** A header claiming 2^37 bits followed by a few bytes must fail without allocating 16 GiB. */
  @Test
  void hostileSizesFailBeforeAllocating() throws IOException {
    byte[] b = valid();
    ByteBuffer.wrap(b).putLong(8, Sizing.MAX_BITS).putLong(44, Sizing.MAX_BITS / 8);
    long before = usedHeap();
    assertThatThrownBy(() -> load(b)).isInstanceOf(IOException.class).hasMessageContaining("truncated");
    // The surefire heap is 2 GiB, so reaching here proves no 16 GiB array was made; check it stayed small.
    org.assertj.core.api.Assertions.assertThat(usedHeap() - before).isLessThan(64L << 20);

    byte[] terabytes = valid();
    ByteBuffer.wrap(terabytes).putLong(8, 8L << 40).putLong(44, 1L << 40);
    assertThatThrownBy(() -> load(terabytes)).isInstanceOf(IOException.class)
        .hasMessageContaining("bit count must be in [1, " + Sizing.MAX_BITS + "], was " + (8L << 40));
  }

  @Test
  void readsExactlyOneFilterFromAStream() throws IOException {
    byte[] one = valid();
    byte[] two = new byte[one.length * 2];
    System.arraycopy(one, 0, two, 0, one.length);
    System.arraycopy(one, 0, two, one.length, one.length);
    InputStream in = new ByteArrayInputStream(two);
    BloomFilter.readFrom(in, Funnels.stringFunnel());
    BloomFilter.readFrom(in, Funnels.stringFunnel());
    org.assertj.core.api.Assertions.assertThat(in.read()).isEqualTo(-1);
  }

  private static long usedHeap() {
    Runtime r = Runtime.getRuntime();
    return r.totalMemory() - r.freeMemory();
  }
}
