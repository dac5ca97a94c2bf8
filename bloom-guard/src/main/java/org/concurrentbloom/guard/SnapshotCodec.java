package org.concurrentbloom.guard;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;
import java.util.zip.CRC32C;
import org.concurrentbloom.BloomFilter;
import org.concurrentbloom.FilterType;
import org.concurrentbloom.Funnel;

/**
 * Encodes and decodes a guard snapshot: a small versioned envelope (what the guard was configured with,
 * the watermark the filter is complete up to) followed by the filter in the core format of
 * docs/FORMAT.md. docs/GUARD.md documents the envelope byte by byte.
 *
 * <pre>
 * offset size  field (big-endian)
 *  0      4    magic "CBGS" (0x43 0x42 0x47 0x53)
 *  4      1    envelope version (2)
 *  5      1    flags: bit 0 = a watermark is present; the other bits are 0
 *  6      1    layout: 1 = standard, 2 = blocked (the core format's type ids)
 *  7      1    reserved: 0
 *  8      8    configured expected insertions (the filter's own n may be larger after growth)
 * 16      8    configured fpp (IEEE 754 binary64)
 * 24      8    watermark (0 when flag bit 0 is clear)
 * 32      8    written at, milliseconds since the epoch
 * 40      8    F, the length of the filter bytes
 * 48      2    L, the length of the guard's name in UTF-8 bytes, at most 1024
 * 50      L    the guard's name, UTF-8
 * 50+L    4    CRC32C of bytes [0, 50+L)
 * 54+L    F    the filter, docs/FORMAT.md (it ends with its own CRC32C)
 * </pre>
 *
 * <p>Decoding checks the envelope's checksum before using any field, reads the filter through the
 * core reader (which checks its checksum and never allocates more than the bytes present justify), and
 * requires the filter to be exactly F bytes long and to be the last thing in the stream: a truncated,
 * extended or bit-flipped snapshot is an IOException, never a filter. Stateless.
 */
final class SnapshotCodec {
  static final int MAGIC = 0x43424753; // "CBGS"
  /**
   * 2 since timestamp watermarks stopped depending on the JVM's zone (WatermarkColumn). A version-1
   * snapshot's timestamp watermark may be hours off in the new encoding, too late for a catch-up, so it
   * is refused like any unknown version and the guard rebuilds from the source.
   */
  static final int VERSION = 2;
  static final int MAX_NAME_BYTES = 1024;
  private static final int FIXED_BYTES = 50;
  private static final int FLAG_WATERMARK = 1;

  private SnapshotCodec() {}

  /** A decoded snapshot: the configuration it was written under, its watermark and its filter. */
  record Snapshot<K>(String name, long configuredInsertions, double configuredFpp, int layout,
      OptionalLong watermark, long writtenAtMillis, BloomFilter<K> filter) {}

  /** The envelope's layout byte: the filter type's id, for the two types a guard builds. */
  static int layoutId(BloomFilter<?> filter) {
    FilterType type = filter.filterType();
    if (!isGuardType(type)) {
      throw new IllegalArgumentException("a guard snapshot cannot hold a " + type.shortName() + " filter");
    }
    return type.id();
  }

  private static boolean isGuardType(FilterType type) {
    return type == FilterType.STANDARD || type == FilterType.BLOCKED;
  }

  static void write(OutputStream out, String name, long configuredInsertions, double configuredFpp,
      OptionalLong watermark, long writtenAtMillis, BloomFilter<?> filter) throws IOException {
    byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
    if (nameBytes.length > MAX_NAME_BYTES) {
      throw new IllegalArgumentException("name must be at most " + MAX_NAME_BYTES + " UTF-8 bytes, was "
          + nameBytes.length);
    }
    long filterLength = filterBytes(filter);
    ByteBuffer header = ByteBuffer.allocate(FIXED_BYTES + nameBytes.length);
    header.putInt(MAGIC)
        .put((byte) VERSION)
        .put((byte) (watermark.isPresent() ? FLAG_WATERMARK : 0))
        .put((byte) layoutId(filter))
        .put((byte) 0)
        .putLong(configuredInsertions)
        .putDouble(configuredFpp)
        .putLong(watermark.orElse(0))
        .putLong(writtenAtMillis)
        .putLong(filterLength)
        .putShort((short) nameBytes.length)
        .put(nameBytes);
    CRC32C crc = new CRC32C();
    crc.update(header.array());
    out.write(header.array());
    out.write(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    CountingOutputStream counted = new CountingOutputStream(out);
    filter.writeTo(counted);
    if (counted.count != filterLength) {
      // The stream now holds a wrong envelope; the caller's store must not keep it (and the reader
      // would reject it anyway). Only a change of the core format without this class could cause it.
      throw new IOException("the filter wrote " + counted.count + " bytes, expected " + filterLength);
    }
  }

  /** The core format's length for this filter: 52 header bytes, the words, the 4-byte CRC32C. */
  static long filterBytes(BloomFilter<?> filter) {
    return 52 + 8 * ((filter.bitSize() + 63) >>> 6) + 4;
  }

  static <K> Snapshot<K> read(InputStream in, Funnel<? super K> funnel) throws IOException {
    DataInputStream data = new DataInputStream(in);
    byte[] fixed = new byte[FIXED_BYTES];
    readFully(data, fixed, "envelope header");
    ByteBuffer h = ByteBuffer.wrap(fixed);
    int magic = h.getInt();
    if (magic != MAGIC) {
      throw new IOException(String.format(
          "not a guard snapshot: magic is 0x%08x, expected 0x%08x (\"CBGS\")", magic, MAGIC));
    }
    int version = h.get() & 0xFF;
    if (version != VERSION) {
      throw new IOException("unsupported snapshot version " + version + "; this library reads version " + VERSION);
    }
    int flags = h.get() & 0xFF;
    int layout = h.get() & 0xFF;
    int reserved = h.get() & 0xFF;
    long configuredInsertions = h.getLong();
    double configuredFpp = h.getDouble();
    long watermark = h.getLong();
    long writtenAt = h.getLong();
    long filterLength = h.getLong();
    int nameLength = h.getShort() & 0xFFFF;
    if (nameLength > MAX_NAME_BYTES) {
      throw new IOException("snapshot name length " + nameLength + " exceeds " + MAX_NAME_BYTES + " bytes");
    }
    byte[] nameBytes = new byte[nameLength];
    readFully(data, nameBytes, "snapshot name");
    byte[] storedCrc = new byte[4];
    readFully(data, storedCrc, "envelope CRC32C");
    CRC32C crc = new CRC32C();
    crc.update(fixed);
    crc.update(nameBytes);
    int stored = ByteBuffer.wrap(storedCrc).getInt();
    if (stored != (int) crc.getValue()) {
      throw new IOException(String.format("snapshot envelope checksum mismatch: stored CRC32C 0x%08x, "
          + "computed 0x%08x: the snapshot is corrupt", stored, (int) crc.getValue()));
    }
    // Only now, the checksum having passed, are the fields trusted enough to be checked for meaning.
    if ((flags & ~FLAG_WATERMARK) != 0 || reserved != 0) {
      throw new IOException("snapshot flags " + flags + " / reserved byte " + reserved + " have unknown bits set");
    }
    if (layout != FilterType.STANDARD.id() && layout != FilterType.BLOCKED.id()) {
      throw new IOException("unknown snapshot layout " + layout + "; known: " + FilterType.STANDARD.id()
          + " (standard), " + FilterType.BLOCKED.id() + " (blocked)");
    }
    if (filterLength < 0) {
      throw new IOException("negative filter length " + filterLength);
    }
    BoundedInputStream body = new BoundedInputStream(data, filterLength);
    BloomFilter<K> filter = BloomFilter.readFrom(body, funnel);
    if (body.remaining != 0) {
      throw new IOException("the filter took " + (filterLength - body.remaining) + " bytes, the envelope says "
          + filterLength);
    }
    if (data.read() != -1) {
      throw new IOException("bytes follow the end of the snapshot: not a complete, single snapshot");
    }
    if (layoutId(filter) != layout) {
      throw new IOException("the envelope says layout " + layout + ", the filter is "
          + filter.filterType().shortName());
    }
    return new Snapshot<>(new String(nameBytes, StandardCharsets.UTF_8), configuredInsertions, configuredFpp,
        layout, (flags & FLAG_WATERMARK) != 0 ? OptionalLong.of(watermark) : OptionalLong.empty(),
        writtenAt, filter);
  }

  private static void readFully(DataInputStream in, byte[] into, String what) throws IOException {
    try {
      in.readFully(into);
    } catch (EOFException e) {
      throw new IOException("the snapshot ends inside the " + what + ": it is truncated", e);
    }
  }

  /** Counts the bytes written through it. */
  private static final class CountingOutputStream extends FilterOutputStream {
    long count;

    CountingOutputStream(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }
  }

  /** Lets at most {@code remaining} bytes through, then reports end of stream. */
  private static final class BoundedInputStream extends FilterInputStream {
    long remaining;

    BoundedInputStream(InputStream in, long limit) {
      super(in);
      this.remaining = limit;
    }

    @Override
    public int read() throws IOException {
      if (remaining <= 0) {
        return -1;
      }
      int b = super.read();
      if (b >= 0) {
        remaining--;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (remaining <= 0) {
        return -1;
      }
      int n = super.read(b, off, (int) Math.min(len, remaining));
      if (n > 0) {
        remaining -= n;
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long skipped = super.skip(Math.min(n, remaining));
      remaining -= skipped;
      return skipped;
    }

    @Override
    public int available() throws IOException {
      return (int) Math.min(super.available(), remaining);
    }

    @Override
    public boolean markSupported() {
      return false;
    }
  }
}
