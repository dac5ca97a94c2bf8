package org.concurrentbloom.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
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

  /**
   * The header of {@code path}, or null if the file does not start like a concurrent-bloom filter of a
   * known version and type (the library's reader then names the problem).
   *
   * @throws CliException if the file looks like a Guava filter, or cannot be read at all
   */
  static FileHeader peek(Path path) throws CliException {
    byte[] head;
    long size;
    try (InputStream in = Files.newInputStream(path)) {
      head = in.readNBytes(8);
      size = Files.size(path);
    } catch (IOException e) {
      throw new CliException("cannot load filter " + path + ": " + ErrorReporter.reason(e), e);
    }
    if (head.length < 8) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(head);
    if (b.getInt() != MAGIC) {
      if (looksLikeGuava(head, size)) {
        throw new CliException("cannot load filter " + path + ": it looks like a file written by Guava's "
            + "BloomFilter.writeTo, not a concurrent-bloom filter; convert it with 'bloom import --guava " + path
            + " -o NEW', or query it as it is with 'bloom query --guava " + path + " KEY...' (either with --key-type "
            + "if its funnel was not Funnels.stringFunnel(UTF_8))");
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
   * Guava's layout: strategy ordinal (0 or 1), k, a big-endian word count, then exactly that many
   * words. A file whose length matches that exactly is almost certainly one.
   */
  private static boolean looksLikeGuava(byte[] head, long size) {
    ByteBuffer b = ByteBuffer.wrap(head);
    int ordinal = b.get();
    int k = b.get() & 0xFF;
    long words = b.getInt() & 0xFFFFFFFFL;
    return (ordinal == 0 || ordinal == 1) && k >= 1 && words >= 1 && size == 6 + 8 * words;
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
