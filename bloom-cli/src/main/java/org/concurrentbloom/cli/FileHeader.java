package org.concurrentbloom.cli;

import java.nio.ByteBuffer;
import org.concurrentbloom.FilterType;
import org.concurrentbloom.KeyType;

/**
 * The first 8 bytes of a filter file (docs/FORMAT.md): enough to choose the reader and the key type
 * before the file is loaded. Anything that is not a concurrent-bloom file is left to the library's
 * reader, whose message says what is wrong, except a file that looks like Guava's
 * {@code BloomFilter.writeTo} output, which gets a pointer to {@code bloom import --guava}.
 */
record FileHeader(int version, FilterType kind, KeyType keyType) {
  static final int MAGIC = 0x43424C4D; // "CBLM"

  /** How many bytes {@link #parse} looks at: the fixed header of a filter of types 1 to 4. */
  static final int PEEK_BYTES = 52;

  /**
   * The header that {@code head}, the first bytes of {@code source} (up to {@link #PEEK_BYTES}), starts,
   * or null if they do not start a concurrent-bloom filter of a known version and type (the library's
   * reader then names the problem).
   *
   * @param size the source's length in bytes, or -1 if it is a stream of unknown length
   * @throws CliException if the bytes look like a Guava filter
   */
  static FileHeader parse(String source, byte[] head, long size) throws CliException {
    if (head.length < 8) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(head);
    if (b.getInt() != MAGIC) {
      if (looksLikeGuava(head, size)) {
        throw new CliException("cannot load filter " + source + ": it looks like a file written by Guava's "
            + "BloomFilter.writeTo, not a concurrent-bloom filter; convert it with 'bloom import --guava " + source
            + " -o NEW', or query it as it is with 'bloom query --guava " + source + " KEY...' (either with "
            + "--key-type if its funnel was not Funnels.stringFunnel(UTF_8))");
      }
      return null;
    }
    int version = b.get() & 0xFF;
    FilterType kind = knownType(b.get() & 0xFF);
    b.get(); // strategy: the library checks it
    int keyByte = b.get() & 0xFF;
    if ((version != 1 && version != 2) || kind == null) {
      return null;
    }
    KeyType keyType;
    if (version == 1) {
      keyType = KeyType.UNRECORDED;
    } else {
      try {
        keyType = KeyType.ofId(keyByte);
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    return new FileHeader(version, kind, keyType);
  }

  /**
   * The payload length that the fixed header in {@code head} states (field L, docs/FORMAT.md), for the
   * filter types whose header is the fixed one (1 to 4), or -1 for others or a short {@code head}: what
   * loading a stream of unknown length will allocate.
   */
  long statedPayloadBytes(byte[] head) {
    if (head.length < PEEK_BYTES || kind.id() > FilterType.COUNTING.id()) {
      return -1;
    }
    return ByteBuffer.wrap(head).getLong(44);
  }

  /**
   * Whether {@code head} starts with the magic of a concurrent-bloom filter ("CBLM"), of whatever
   * version or type.
   */
  static boolean hasMagic(byte[] head) {
    return head.length >= 4 && ByteBuffer.wrap(head).getInt() == MAGIC;
  }

  /**
   * Guava's layout: strategy ordinal (0 or 1), k, a big-endian word count, then exactly that many
   * words. A file whose length matches that exactly is almost certainly one; a stream of unknown
   * length ({@code size} -1) is not guessed at.
   */
  private static boolean looksLikeGuava(byte[] head, long size) {
    ByteBuffer b = ByteBuffer.wrap(head);
    int ordinal = b.get();
    int k = b.get() & 0xFF;
    long words = b.getInt() & 0xFFFFFFFFL;
    return head.length >= 6 && (ordinal == 0 || ordinal == 1) && k >= 1 && words >= 1 && size == 6 + 8 * words;
  }

  /** The type with this id, or null if the library knows none. */
  private static FilterType knownType(int id) {
    try {
      return FilterType.ofId(id);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** The type's name as messages use it before "filter": "standard", ..., "Guava-compatible". */
  static String noun(FilterType type) {
    return type == FilterType.GUAVA ? "Guava-compatible" : type.shortName();
  }

  /** "a standard filter", "an expiring filter": for sentences (only "expiring" starts with a vowel sound). */
  static String withArticle(FilterType type) {
    return (type == FilterType.EXPIRING ? "an " : "a ") + noun(type) + " filter";
  }
}
