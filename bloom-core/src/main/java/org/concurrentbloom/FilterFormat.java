package org.concurrentbloom;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Reads and writes the binary filter format, version 2, and reads version 1. docs/FORMAT.md documents
 * it byte by byte and FilterFormatGoldenTest freezes it; change neither without bumping {@link #VERSION}.
 *
 * <pre>
 * offset size  field (big-endian)
 *  0      4    magic "CBLM" (0x43 0x42 0x4C 0x4D)
 *  4      1    format version (2; 1 is read too)
 *  5      1    filter type (1 = standard, 2 = blocked, 3 = Guava-compatible, 4 = counting; 5 = scalable,
 *              which {@link ScalableFormat} reads and this class rejects)
 *  6      1    hash strategy (1 = MurmurHash3 x64 128 + enhanced double hashing, see Probes, for types 1, 4;
 *              2 = MurmurHash3 x64 128 + 512-bit block, see BlockedLayout, for type 2;
 *              3 = Guava's MURMUR128_MITZ_64, see GuavaLayout, for type 3;
 *              4 = XXH3-64 + enhanced double hashing, see Xxh3Keys, for types 1, 4;
 *              5 = XXH3-64 + 512-bit block, for type 2)
 *  7      1    version 2: key type ({@link KeyType#id()}: 0 custom, 1 UTF-8 string, 2 long, 3 int, 4 bytes);
 *              version 1: reserved flags, 0
 *  8      8    m, bits (counters for type 4)
 * 16      4    k, hash functions
 * 20      8    n, expected insertions
 * 28      8    p, target false-positive probability (IEEE 754 binary64)
 * 36      8    count, adds that returned true
 * 44      8    L, payload bytes = 8 * ceil(m / 64); 8 * ceil(m / 16) for type 4
 * 52      L    the bit array as 64-bit words; bit i is bit (i mod 64), least significant first, of word i / 64;
 *              for type 4 the 4-bit counters, counter i in bits 4 (i mod 16) .. 4 (i mod 16) + 3 of word i / 16
 * 52+L    4    CRC32C of bytes [0, 52+L)
 * </pre>
 *
 * <p>Version 2 differs from version 1 only in byte 7. A version 1 file loads with key type
 * {@link KeyType#UNRECORDED}, which any funnel may read; a version 2 file refuses a funnel of another key
 * type ({@link #checkKeyType}). Readers of version 1 reject version 2 by its version byte, so an old
 * release never misreads a new file.
 *
 * <p>Reading never trusts a size before the bytes are there: the word array grows by doubling as the
 * payload arrives, so a header that claims gigabytes followed by a few bytes fails with an IOException
 * after allocating about as much as was actually read.
 */
final class FilterFormat {
  static final int MAGIC = 0x43424C4D; // "CBLM"
  static final int VERSION = 2;
  /** The first version, without the key type byte: still read. */
  static final int VERSION_1 = 1;
  static final int HEADER_BYTES = 52;
  static final int TRAILER_BYTES = 4;
  /** What most payloads are, for the message of one that ends early. */
  static final String BIT_ARRAY = "bit array";
  /** The first read of the payload allocates at most this many words (512 KiB). */
  private static final int FIRST_ALLOCATION_WORDS = 1 << 16;
  private static final int IO_BUFFER_BYTES = 1 << 13;

  private FilterFormat() {}

  /** The fixed header fields. */
  record Header(FilterType type, HashStrategy strategy, KeyType keyType, long bits, int hashFunctions, long expectedInsertions,
      double fpp, long count) {}

  /** A header, its layout and the words it describes, checked against each other and the checksum. */
  record Loaded(Header header, Layout layout, long[] words) {}

  /** Writes a bit-array filter's record: its layout's type and strategy, then the table's words. */
  static void write(OutputStream out, Layout layout, KeyType keyType, long n, double fpp, BitTable table)
      throws IOException {
    if (!layout.strategy().isStorable()) {
      // The CBLM format has no strategy id for these probes; a file could only be read back wrongly.
      throw new IOException("this filter was read from Guava's MURMUR128_MITZ_32 bytes (" + layout.shape()
          + "), which the filter file format cannot hold: query it, and rebuild from the source data with"
          + " BloomFilter.builder(...) to save it");
    }
    write(out, new Header(layout.type(), layout.strategy(), keyType, layout.bits, layout.hashFunctions, n, fpp,
        table.count()), table.words);
  }

  static void write(OutputStream out, Header h, long[] words) throws IOException {
    CRC32C crc = new CRC32C();
    ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
    header.putInt(MAGIC)
        .put((byte) VERSION)
        .put((byte) h.type().id())
        .put((byte) h.strategy().id())
        .put((byte) writtenKeyType(h.keyType()))
        .putLong(h.bits())
        .putInt(h.hashFunctions())
        .putLong(h.expectedInsertions())
        .putDouble(h.fpp())
        .putLong(h.count())
        .putLong(8L * words.length);
    crc.update(header.array(), 0, HEADER_BYTES);
    out.write(header.array(), 0, HEADER_BYTES);

    writeWords(out, words, crc);
    ByteBuffer trailer = ByteBuffer.allocate(TRAILER_BYTES).putInt((int) crc.getValue());
    out.write(trailer.array());
  }

  /** Reads one filter record that is a whole file or stream. */
  static Loaded read(InputStream in) throws IOException {
    return read(in, true);
  }

  /**
   * Reads one filter record: a whole file ({@code alone}), or a record inside another (a scalable
   * filter's layer), where a short read can only mean the outer file is truncated.
   */
  static Loaded read(InputStream in, boolean alone) throws IOException {
    CRC32C crc = new CRC32C();
    Header h = alone ? readHeader(in, crc) : readNestedHeader(in, crc);
    if (!h.type().isBitArray()) {
      throw new IOException("filter type " + h.type().id() + " is a " + h.type().shortName()
          + " filter, not a BloomFilter: read it with " + h.type().reader());
    }
    Layout layout;
    try {
      layout = h.type().layout(h.bits(), h.hashFunctions(), h.strategy());
    } catch (IllegalArgumentException e) {
      throw new IOException("invalid header: " + e.getMessage(), e);
    }

    int wordCount = Sizing.wordsFor(h.bits());
    long[] words = readPayload(in, wordCount, crc);
    int tailBits = (int) (h.bits() & 63);
    if (tailBits != 0 && (words[wordCount - 1] >>> tailBits) != 0) {
      throw new IOException("bits past m=" + h.bits() + " are set in the last word: not a valid filter");
    }
    return new Loaded(h, layout, words);
  }

  /** As {@link #readHeader}, for a record inside another: any short read is "truncated". */
  private static Header readNestedHeader(InputStream in, CRC32C crc) throws IOException {
    byte[] headerBytes = new byte[HEADER_BYTES];
    readFully(in, headerBytes, 0, HEADER_BYTES, "header");
    crc.update(headerBytes);
    return parseHeader(ByteBuffer.wrap(headerBytes));
  }

  /** Reads and checks the fixed header of any filter type, updating {@code crc} with its bytes. */
  static Header readHeader(InputStream in, CRC32C crc) throws IOException {
    byte[] headerBytes = readHeaderBytes(in, HEADER_BYTES, "header");
    crc.update(headerBytes);
    return parseHeader(ByteBuffer.wrap(headerBytes));
  }

  /** Reads the payload of {@code wordCount} words and the CRC32C trailer, and checks the checksum. */
  static long[] readPayload(InputStream in, int wordCount, CRC32C crc) throws IOException {
    return readPayload(in, wordCount, crc, BIT_ARRAY);
  }

  /** As {@link #readPayload(InputStream, int, CRC32C)}, naming the payload {@code what} if it ends early. */
  static long[] readPayload(InputStream in, int wordCount, CRC32C crc, String what) throws IOException {
    long[] words = readWords(in, wordCount, crc, what);
    checkTrailer(in, (int) crc.getValue());
    return words;
  }

  /** Reads the 4-byte CRC32C trailer and compares it with {@code computed}, the CRC of all bytes before it. */
  static void checkTrailer(InputStream in, int computed) throws IOException {
    byte[] trailer = new byte[TRAILER_BYTES];
    readFully(in, trailer, 0, TRAILER_BYTES, "CRC32C trailer");
    int stored = ByteBuffer.wrap(trailer).getInt();
    if (stored != computed) {
      throw new IOException(String.format(
          "checksum mismatch: stored CRC32C 0x%08x, computed 0x%08x: the data is corrupt", stored, computed));
    }
  }

  /**
   * Reads {@code wordCount} big-endian words, updating {@code crc} (if not null) with their bytes. The
   * array grows by doubling as bytes arrive, so a stream shorter than it claims allocates little.
   */
  static long[] readWords(InputStream in, int wordCount, CRC32C crc) throws IOException {
    return readWords(in, wordCount, crc, BIT_ARRAY);
  }

  /**
   * As {@link #readWords(InputStream, int, CRC32C)}; a stream that ends early is "truncated", with how
   * many bytes of {@code what} (the bit array, the counter array) it held and how many the header declared.
   */
  static long[] readWords(InputStream in, int wordCount, CRC32C crc, String what) throws IOException {
    long[] words = new long[Math.min(wordCount, FIRST_ALLOCATION_WORDS)];
    byte[] buffer = new byte[IO_BUFFER_BYTES];
    ByteBuffer view = ByteBuffer.wrap(buffer);
    int w = 0;
    while (w < wordCount) {
      int n = Math.min(wordCount - w, IO_BUFFER_BYTES / 8);
      int got = readUpTo(in, buffer, n * 8);
      if (got < n * 8) {
        throw new IOException("truncated filter: it ends after " + (8L * w + got) + " bytes of the " + what
            + ", which the header says holds " + 8L * wordCount + " bytes");
      }
      if (crc != null) {
        crc.update(buffer, 0, n * 8);
      }
      if (w + n > words.length) {
        words = Arrays.copyOf(words, (int) Math.min(wordCount, Math.max(w + n, 2L * words.length)));
      }
      view.clear();
      for (int i = 0; i < n; i++) {
        words[w++] = view.getLong();
      }
    }
    return words;
  }

  /** Writes the words big-endian, each read with acquire semantics, updating {@code crc} if not null. */
  static void writeWords(OutputStream out, long[] words, CRC32C crc) throws IOException {
    ByteBuffer chunk = ByteBuffer.allocate(IO_BUFFER_BYTES);
    for (int w = 0; w < words.length; w++) {
      chunk.putLong(AtomicWords.getAcquire(words, w));
      if (!chunk.hasRemaining() || w == words.length - 1) {
        if (crc != null) {
          crc.update(chunk.array(), 0, chunk.position());
        }
        out.write(chunk.array(), 0, chunk.position());
        chunk.clear();
      }
    }
  }

  /**
   * Checks the magic, the first 4 bytes of every type, and returns the version byte, 1 or 2.
   *
   * @throws IOException for another magic or version
   */
  static int readVersion(ByteBuffer b) throws IOException {
    int magic = b.getInt();
    if (magic != MAGIC) {
      throw new IOException(String.format(
          "not a concurrent-bloom filter: magic is 0x%08x, expected 0x%08x (\"CBLM\")", magic, MAGIC));
    }
    int version = b.get() & 0xFF;
    if (version != VERSION && version != VERSION_1) {
      throw new IOException("unsupported format version " + version + "; this library reads versions "
          + VERSION_1 + " and " + VERSION);
    }
    return version;
  }

  /**
   * Reads byte 7 of every type: the key type in version 2; in version 1 the reserved flags, which must be
   * 0, giving {@link KeyType#UNRECORDED}.
   */
  static KeyType readKeyType(ByteBuffer b, int version) throws IOException {
    int value = b.get() & 0xFF;
    if (version == VERSION_1) {
      if (value != 0) {
        throw new IOException("reserved flags byte of a version 1 file is " + value + ", expected 0");
      }
      return KeyType.UNRECORDED;
    }
    try {
      return KeyType.ofId(value);
    } catch (IllegalArgumentException e) {
      throw new IOException("invalid header: " + e.getMessage(), e);
    }
  }

  /** Byte 7 as written: a key type's id (a filter always has a funnel, so never UNRECORDED). */
  static int writtenKeyType(KeyType keyType) {
    if (keyType == KeyType.UNRECORDED) {
      throw new IllegalArgumentException("UNRECORDED is never written");
    }
    return keyType.id();
  }

  /**
   * Refuses to read a file whose keys were hashed by another kind of funnel than {@code funnel}: its
   * answers would be wrong ("absent" for keys that were added), not merely slow.
   *
   * @throws IOException naming both key types if {@code recorded} does not admit the funnel's
   */
  static void checkKeyType(KeyType recorded, Funnel<?> funnel) throws IOException {
    KeyType given = KeyType.of(funnel);
    if (!recorded.admits(given)) {
      throw new IOException("the filter's keys are " + recorded.description() + " (key type " + recorded
          + "), but the funnel given, " + funnel + ", writes " + given.description() + " (key type " + given
          + "): its lookups would answer wrongly; read it with the matching funnel, or with "
          + "Funnels.withKeyType(funnel, KeyType." + recorded + ") if your funnel writes the same bytes");
    }
  }

  private static Header parseHeader(ByteBuffer b) throws IOException {
    int version = readVersion(b);
    FilterType type = readType(b);
    if (type == FilterType.SCALABLE || type == FilterType.EXPIRING) {
      throw new IOException("filter type " + type.id() + " is " + (type == FilterType.SCALABLE ? "a scalable"
          : "an expiring") + " Bloom filter: read it with " + type.reader() + ", not BloomFilter.readFrom");
    }
    int strategyId = b.get() & 0xFF;
    HashStrategy strategy = readableStrategy(strategyId);
    if (strategy == null || !type.admits(strategy)) {
      throw new IOException("unknown hash strategy " + strategyId + " for filter type " + type.id()
          + "; that type uses strategy " + type.strategyList());
    }
    KeyType keyType = readKeyType(b, version);
    long bits = b.getLong();
    int k = b.getInt();
    long n = b.getLong();
    double p = b.getDouble();
    long count = b.getLong();
    long payload = b.getLong();
    boolean counting = type == FilterType.COUNTING;
    try {
      if (counting) {
        CounterWords.checkShape(bits, k);
      } else {
        Sizing.checkShape(bits, k);
      }
      Sizing.checkExpectedInsertions(n);
      Sizing.checkFpp(p);
    } catch (IllegalArgumentException e) {
      throw new IOException("invalid header: " + e.getMessage(), e);
    }
    if (count < 0) {
      throw new IOException("invalid header: count must be >= 0, was " + count);
    }
    long expectedPayload = 8L * (counting ? CounterWords.wordsFor(bits) : Sizing.wordsFor(bits));
    if (payload != expectedPayload) {
      throw new IOException("invalid header: payload length " + payload + " bytes does not match m=" + bits
          + (counting ? " counters" : " bits") + ", which needs " + expectedPayload);
    }
    return new Header(type, strategy, keyType, bits, k, n, p, count);
  }

  /** The storable strategy with this id, or null. */
  static HashStrategy readableStrategy(int id) {
    for (HashStrategy s : HashStrategy.values()) {
      if (s.id() == id && s.isStorable()) {
        return s;
      }
    }
    return null;
  }

  /** Reads the type byte. */
  static FilterType readType(ByteBuffer b) throws IOException {
    try {
      return FilterType.ofId(b.get() & 0xFF);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /**
   * Reads a header of {@code length} bytes. A stream that ends early is "truncated" only if what it held
   * starts like a filter; anything else (an empty or a short text file) is "not a concurrent-bloom
   * filter", which is what a user who passed the wrong file needs to hear.
   */
  static byte[] readHeaderBytes(InputStream in, int length, String what) throws IOException {
    byte[] bytes = new byte[length];
    int done = readUpTo(in, bytes, length);
    if (done == 0) {
      throw new IOException("not a concurrent-bloom filter: the stream is empty");
    }
    if (done < 4) {
      throw new IOException("not a concurrent-bloom filter: the stream holds only " + done + " bytes");
    }
    if (ByteBuffer.wrap(bytes).getInt() != MAGIC) {
      return bytes; // readVersion names the wrong magic
    }
    if (done < length) {
      throw truncated(done, length, what);
    }
    return bytes;
  }

  static void readFully(InputStream in, byte[] buf, int off, int len, String what) throws IOException {
    int done = 0;
    while (done < len) {
      int r = in.read(buf, off + done, len - done);
      if (r < 0) {
        throw truncated(done, len, what);
      }
      done += r;
    }
  }

  /** "truncated filter: it ends after 3 of the 48 bytes of the header". */
  private static IOException truncated(int done, int length, String what) {
    return new IOException("truncated filter: it ends after " + done + " of the " + length + " bytes of the " + what);
  }

  /** Reads into {@code buf[0, len)} until it is full or the stream ends; returns the bytes read. */
  private static int readUpTo(InputStream in, byte[] buf, int len) throws IOException {
    int done = 0;
    while (done < len) {
      int r = in.read(buf, done, len - done);
      if (r < 0) {
        break;
      }
      done += r;
    }
    return done;
  }
}
