package org.concurrentbloom.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.OptionalLong;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.Funnels;
import org.junit.jupiter.api.Test;

class SnapshotCodecTest {

  private static BloomFilter<CharSequence> filter(int keys) {
    BloomFilter<CharSequence> f = BloomFilter.create(Funnels.stringFunnel(), 1_000, 0.01);
    for (int i = 0; i < keys; i++) {
      f.add("key-" + i);
    }
    return f;
  }

  private static byte[] encode(BloomFilter<CharSequence> f, OptionalLong watermark) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    SnapshotCodec.write(out, "users.email", 1_000, 0.01, watermark, 1_700_000_000_000L, f);
    return out.toByteArray();
  }

  private static SnapshotCodec.Snapshot<CharSequence> decode(byte[] bytes) throws IOException {
    return SnapshotCodec.read(new ByteArrayInputStream(bytes), Funnels.stringFunnel());
  }

  @Test
  void roundTripsEveryFieldAndTheFilterBitForBit() throws IOException {
    BloomFilter<CharSequence> f = filter(500);
    byte[] bytes = encode(f, OptionalLong.of(123_456_789L));
    SnapshotCodec.Snapshot<CharSequence> s = decode(bytes);
    assertThat(s.name()).isEqualTo("users.email");
    assertThat(s.configuredInsertions()).isEqualTo(1_000);
    assertThat(s.configuredFpp()).isEqualTo(0.01);
    assertThat(s.layout()).isEqualTo(1);
    assertThat(s.watermark()).hasValue(123_456_789L);
    assertThat(s.writtenAtMillis()).isEqualTo(1_700_000_000_000L);
    ByteArrayOutputStream original = new ByteArrayOutputStream();
    ByteArrayOutputStream loaded = new ByteArrayOutputStream();
    f.writeTo(original);
    s.filter().writeTo(loaded);
    assertThat(loaded.toByteArray()).isEqualTo(original.toByteArray());
    assertThat(bytes.length).isEqualTo(54 + "users.email".length() + SnapshotCodec.filterBytes(f));
  }

  @Test
  void theEnvelopeLayoutIsAsDocumented() throws IOException {
    byte[] bytes = encode(filter(1), OptionalLong.empty());
    ByteBuffer b = ByteBuffer.wrap(bytes);
    assertThat(b.getInt()).isEqualTo(0x43424753);
    assertThat(b.get()).as("version").isEqualTo((byte) 2);
    assertThat(b.get()).as("flags: no watermark").isEqualTo((byte) 0);
    assertThat(b.get()).as("layout").isEqualTo((byte) 1);
    assertThat(b.get()).isZero();
    assertThat(b.getLong()).isEqualTo(1_000);
    assertThat(b.getDouble()).isEqualTo(0.01);
    assertThat(b.getLong()).as("watermark").isZero();
    assertThat(b.getLong()).isEqualTo(1_700_000_000_000L);
    long filterLength = b.getLong();
    assertThat(b.getShort()).isEqualTo((short) 11);
    assertThat(new String(bytes, 50, 11, java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("users.email");
    assertThat(bytes.length).isEqualTo(50 + 11 + 4 + filterLength);
    assertThat(new String(bytes, 65, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("CBLM");
    assertThat(decode(bytes).watermark()).isEmpty();
  }

  @Test
  void everyTruncationIsRejected() throws IOException {
    byte[] bytes = encode(filter(100), OptionalLong.of(7));
    for (int length = 0; length < bytes.length; length++) {
      byte[] prefix = Arrays.copyOf(bytes, length);
      assertThatThrownBy(() -> decode(prefix)).as("prefix of %d bytes", length).isInstanceOf(IOException.class);
    }
  }

  @Test
  void everySingleBitFlipIsRejected() throws IOException {
    byte[] bytes = encode(filter(100), OptionalLong.of(7));
    for (int i = 0; i < bytes.length; i++) {
      for (int bit = 0; bit < 8; bit += 3) {
        byte[] damaged = bytes.clone();
        damaged[i] ^= (byte) (1 << bit);
        int at = i;
        assertThatThrownBy(() -> decode(damaged)).as("bit %d of byte %d", bit, at).isInstanceOf(IOException.class);
      }
    }
  }

  @Test
  void trailingBytesAndForeignFilesAreRejected() throws IOException {
    byte[] bytes = encode(filter(10), OptionalLong.of(7));
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
    assertThatThrownBy(() -> decode(longer)).hasMessageContaining("bytes follow");
    ByteArrayOutputStream bare = new ByteArrayOutputStream();
    filter(10).writeTo(bare);
    assertThatThrownBy(() -> decode(bare.toByteArray())).hasMessageContaining("not a guard snapshot");
  }

  @Test
  void aHostileFilterLengthAllocatesNothingBig() throws IOException {
    byte[] bytes = encode(filter(10), OptionalLong.of(7));
    // A valid envelope (checksum recomputed) that claims an 8 EiB filter followed by a small one.
    ByteBuffer b = ByteBuffer.wrap(bytes);
    b.putLong(40, Long.MAX_VALUE);
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(bytes, 0, 61);
    b.putInt(61, (int) crc.getValue());
    assertThatThrownBy(() -> decode(bytes)).isInstanceOf(IOException.class).hasMessageContaining("envelope says");
  }

  @Test
  void aVersionOneSnapshotWhoseTimestampWatermarkDependedOnTheZoneIsRefused() throws IOException {
    byte[] bytes = encode(filter(10), OptionalLong.of(7));
    ByteBuffer b = ByteBuffer.wrap(bytes);
    b.put(4, (byte) 1);
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(bytes, 0, 61);
    b.putInt(61, (int) crc.getValue());
    assertThatThrownBy(() -> decode(bytes)).isInstanceOf(IOException.class)
        .hasMessageContaining("unsupported snapshot version 1");
  }
}
